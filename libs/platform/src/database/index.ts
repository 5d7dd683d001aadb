export * from './data-source';
export * from './database';
export * from './migrate';
