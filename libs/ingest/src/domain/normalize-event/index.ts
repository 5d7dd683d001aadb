// The normaliser: an SDK event payload in, one strict and bounded shape out. The entry point is
// normalize-event.ts; each Sentry interface has its file, and json-bounds.ts bounds free-form data.
export { normalizeEvent } from './normalize-event';
export { EVENT_LIMITS } from './limits';
export { parseTimestamp } from './attributes';
export { formatParams } from './message';
export { boundJson, type JsonBounds } from './json-bounds';
export { truncate } from './fields';
export { culpritAfterMapping, culpritFromExceptions, titleOf } from './title-and-culprit';
export * from './types';
