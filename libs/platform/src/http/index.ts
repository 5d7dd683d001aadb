export * from './all-exceptions.filter';
export * from './configure-http';
export * from './error-body';
export * from './pagination';
export * from './validation.pipe';
export * from './dto-fields';
export * from './query-params';
