export { AlertsModule } from './alerts.module';
export * from './contracts';
