export { AppWebhookOutbox, type AppWebhookNotice } from './app-webhook-outbox';
export { InstallationLookup, type InstalledApp } from './installation-lookup';
export {
  InstallationEventTypes,
  SentryAppEventTypes,
  INSTALLATION_STREAM_TYPE,
  installationStream,
  type AppWebhookResource,
  type SchemaElement,
  type WebhookActor,
} from '../domain';
export { errorPayload, type ErrorPayload, type ErrorPayloadSource } from './error-payload';
