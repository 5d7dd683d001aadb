export * from './auth.guard';
export * from './decorators';
export * from './principal';
