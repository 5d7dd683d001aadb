export * from './contracts';
export { IdentityModule } from './identity.module';
