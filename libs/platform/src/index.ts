export * from './auth';
export * from './config';
export * from './database';
export * from './http';
export * from './lifecycle/worker-host';
export * from './observability/logger';
export * from './observability/metrics';
export * from './platform.module';
