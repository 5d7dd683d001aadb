// The ingest domain: the Sentry SDK protocol (auth, envelopes, body decoding), event normalisation
// and grouping. Pure functions; the HTTP endpoints and storage call them.
export { EnvelopeError, type EnvelopeErrorReason } from './envelope-error';
export { attachmentUploadEnvelope, type FormEntry, type FormFile } from './attachment-upload';
export { MINIDUMP_LIMITS, minidumpEnvelope, readCrashReason } from './minidump';
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
export {
  ERROR_EVENT_STREAM_TYPE,
  errorEventProcessed,
  errorEventStream,
  IngestEventTypes,
  ORGANIZATION_SPIKES_STREAM_TYPE,
  organizationSpikesStream,
  spikeProtectionActivated,
  type ErrorEventProcessedData,
  type SpikeProtectionActivatedData,
} from './ingest.events';
export { feedbackReportOf, reportOfItem, USER_REPORT_LIMITS, userReportOf, type ParsedUserReport } from './user-report';
export {
  decideRateLimits,
  droppedItems,
  KEY_QUOTA_CATEGORIES,
  QUOTA_CATEGORIES,
  quotaCategoryOf,
  quotaQuantities,
  rateLimitsHeader,
  refusedQuotaChange,
  retryAfterSeconds,
  type Quota,
  type QuotaCategory,
  type QuotaReason,
  type QuotaScope,
  type RateLimit,
  type WindowCount,
} from './rate-limits';
export { evaluateSpike, hourStart, NO_SPIKE, spikeThreshold, type SpikeEvaluation, type SpikeSettings, type SpikeState } from './spike-protection';
export { categoryOfEvent, DATA_CATEGORIES, type DataCategory, ERROR_CATEGORIES, isDataCategory, isErrorCategory } from './data-category';
export {
  accepted,
  type CountedOutcome,
  filtered,
  filterReasonOf,
  type FilterReason,
  invalid,
  type InvalidReason,
  isOutcome,
  type LegacyStat,
  legacyStatsOf,
  type Outcome,
  type OutcomeKind,
  outcomesOf,
  OUTCOMES,
  type Quantity,
  rateLimited,
  type RateLimitReason,
  underRateLimits,
} from './outcome';
export { fateOf, type ItemFate, ITEM_RULES, quantitiesOf } from './item-disposition';
export { CLIENT_REPORT_LIMITS, clientDiscardsOf, DISCARD_REASONS, type DiscardReason } from './client-report';
export {
  OUTCOME_FIELDS,
  OUTCOME_GROUPINGS,
  type OutcomeField,
  type OutcomeGrouping,
  type OutcomesAnswer,
  outcomesAnswer,
  type OutcomesGroup,
  type OutcomesQuery,
  OutcomesQueryError,
  type OutcomesQueryParams,
  OUTCOMES_QUERY_LIMITS,
  type OutcomeTotalsRow,
  parseOutcomesQuery,
  parsePeriod,
} from './outcomes-query';
export { dataScrubber, FILTERED, NO_SCRUBBING, scrubEvent, scrubPayload, type DataScrubber } from './scrub-event';
export { SESSION_ITEM_LIMITS, sessionAggregatesOf, sessionsOfItem, sessionUpdateOf, type ParsedSession } from './session-item';
