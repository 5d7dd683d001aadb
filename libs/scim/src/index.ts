export { ScimModule } from './scim.module';
