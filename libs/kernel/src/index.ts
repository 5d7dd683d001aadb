export * from './aggregate-root';
export * from './clock';
export * from './domain-error';
export * from './domain-event';
export * from './ids';
export * from './scopes';
export * from './polling-loop';
export * from './wildcard';
