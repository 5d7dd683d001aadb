export * from './data-source';
export * from './database';
export * from './migrate';
export * from './queue-vacuum';
export * from './statement-timeout';
export * from './daily-partitions';
export * from './daily-partitions.worker';
