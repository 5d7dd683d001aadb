export { IngestModule } from './ingest.module';
export { EventProcessor } from './application/event-processor';
