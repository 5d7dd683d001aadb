export { AlertsModule } from './alerts.module';
export { MetricAlertWorker } from './infrastructure/metric-alert.worker';
export { AlertDispatcher, type ServiceAppAlertDelivery } from './infrastructure/alert-dispatcher';
export * from './contracts';
