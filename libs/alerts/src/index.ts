export { AlertsModule } from './alerts.module';
export { MetricAlertWorker } from './infrastructure/metric-alert.worker';
export * from './contracts';
