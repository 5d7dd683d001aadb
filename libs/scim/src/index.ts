export { ScimModule } from './scim.module';
export { ScimEventTypes, AUTH_PROVIDER_STREAM_TYPE, authProviderStream } from './domain/scim.events';
