export { IngestModule } from './ingest.module';
export { EventProcessing } from './contracts/event-processing';
export { decodeBody, DEFAULT_ENVELOPE_LIMITS, ENVELOPE_ITEM_TYPES, parseEnvelope } from './domain';
export { IngestEventTypes, type ErrorEventProcessedData } from './domain';
export { RetryDeadLettersCommand } from './application/commands/retry-dead-letters/retry-dead-letters.command';
export { DeleteDeadLettersCommand } from './application/commands/delete-dead-letters/delete-dead-letters.command';
export { ListDeadLettersQuery, type DeadLetter } from './application/queries/list-dead-letters.query';
export type { DeadLetterScope } from './contracts/dead-letter-scope';
export { INGEST_PUBLISHED_VIEWS } from './contracts/published-views';
