export * from './contracts';
export { IssuesModule } from './issues.module';
export { EventRetentionWorker } from './infrastructure/event-retention.worker';
export { tagKeyLabel } from './api/issues.serializers';
