export { IngestModule } from './ingest.module';
export { EventProcessor } from './application/event-processor';
export { decodeBody, DEFAULT_ENVELOPE_LIMITS, parseEnvelope } from './domain';
export { IngestEventTypes, type ErrorEventProcessedData } from './domain';
