/**
 * The delivery engine's target kind for service apps: their requests carry Sentry's integration
 * platform headers (`<Brand>-Hook-Resource`, `-Timestamp`, `-Signature`, `Request-ID`), a short
 * time-out, and a 4xx answer is final.
 */
export const SENTRY_APP_TARGET = 'sentry_app';
