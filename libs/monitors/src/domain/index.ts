export * from './schedule';
export * from './monitor-config';
export * from './check-in';
export * from './monitor-environment.events';
export * from './monitor-environment.aggregate';
export * from './monitor-definition';
export * from './monitor-failure.events';
