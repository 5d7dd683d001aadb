export * from './all-exceptions.filter';
export * from './configure-http';
export * from './error-body';
export * from './pagination';
export * from './validation.pipe';
export * from './dto-fields';
export { holdsUnstorableText, UNSTORABLE_TEXT_DETAIL } from './storable-input';
export * from './data-privacy.dto';
export * from './query-params';
