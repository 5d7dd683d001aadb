export * from './app-config';
export * from './public-url-record';
