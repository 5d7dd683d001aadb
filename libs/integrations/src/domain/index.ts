export * from './app-webhook';
export * from './installation.aggregate';
export * from './installation.events';
export * from './sentry-app';
export * from './sentry-app.events';
