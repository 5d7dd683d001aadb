export { IngestModule } from './ingest.module';
export { EventProcessor } from './application/event-processor';
export { decodeBody, DEFAULT_ENVELOPE_LIMITS, ENVELOPE_ITEM_TYPES, parseEnvelope } from './domain';
export { IngestEventTypes, type ErrorEventProcessedData } from './domain';
export { RetryDeadLettersCommand } from './application/commands/retry-dead-letters/retry-dead-letters.command';
export { DeleteDeadLettersCommand } from './application/commands/delete-dead-letters/delete-dead-letters.command';
export { ListDeadLettersQuery, type DeadLetter } from './application/queries/list-dead-letters.query';
export type { DeadLetterScope } from './infrastructure/dead-letters.repository';
export { INGEST_PUBLISHED_VIEWS } from './contracts/published-views';
