// The ingest domain: the Sentry SDK protocol (auth, envelopes, body decoding), event normalisation
// and grouping. Pure functions; the HTTP endpoints and storage call them.
export { EnvelopeError, type EnvelopeErrorReason } from './envelope-error';
export { parseAuthHeader, parseDsn, publicKeyFrom, type ParsedDsn, type SentryAuthHeader, type SentryAuthInput, type SentryCredentials } from './sentry-auth';
export {
  DEFAULT_ENVELOPE_LIMITS,
  ENVELOPE_ITEM_TYPES,
  decodeBody,
  decodeBodyPrefix,
  decodeStoreBody,
  parseEnvelope,
  parseItemJson,
  readEnvelopeHeader,
  type Envelope,
  type EnvelopeHeader,
  type EnvelopeItem,
  type EnvelopeItemHeader,
  type EnvelopeItemType,
  type EnvelopeLimits,
  type KnownEnvelopeItemType,
} from './envelope';
export {
  EVENT_LIMITS,
  normalizeEvent,
  parseTimestamp,
  type EventLevel,
  type JsonObject,
  type JsonValue,
  type NormalizeContext,
  type NormalizedEvent,
  type NormalizedException,
  type NormalizedFrame,
  type NormalizedGeo,
  type NormalizedMechanism,
  type NormalizedRequest,
  type NormalizedSdk,
  type NormalizedStacktrace,
  type NormalizedUser,
  type StringPairs,
} from './normalize-event';
export { prepareEvent, type PreparedEvent, type UserIdentity } from './prepare-event';
export { defaultComponents, groupingHash, normalizeFilename, normalizeMessage, type GroupingResult } from './grouping';
export { parseStorableJson, REPLACEMENT_CHARACTER, storableText } from './storable-text';
export {
  INBOUND_FILTER_LIMITS,
  inboundFilterMatchers,
  MAX_FILTER_WORD_STEPS_PER_EVENT,
  matchingFilter,
  NO_FILTERS,
  type InboundFilterMatchers,
  type InboundFilters,
} from './inbound-filters';
export { resolveStatsWindow, type StatsWindow } from './stats-window';
export { ERROR_EVENT_STREAM_TYPE, errorEventProcessed, errorEventStream, IngestEventTypes, type ErrorEventProcessedData } from './ingest.events';
export { feedbackReportOf, reportOfItem, USER_REPORT_LIMITS, userReportOf, type ParsedUserReport } from './user-report';
export { rateLimitsHeader, type QuotaCategory, type QuotaLimit } from './key-quota';
export { SESSION_ITEM_LIMITS, sessionAggregatesOf, sessionsOfItem, sessionUpdateOf, type ParsedSession } from './session-item';
