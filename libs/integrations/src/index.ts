export * from './contracts';
export { IntegrationsModule } from './integrations.module';
