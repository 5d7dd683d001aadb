import { Injectable, Logger } from '@nestjs/common';
import { Database, Metrics } from '@faultline/platform';
import { Counter, Gauge } from 'prom-client';
import { DeadLettersRepository } from './dead-letters.repository';

/** The event processor's Prometheus metrics: dead letters set aside by this process, and waiting in the instance. */
@Injectable()
export class IngestMetrics {
  private readonly logger = new Logger('IngestMetrics');
  private readonly deadLettered: Counter;

  constructor(metrics: Metrics, database: Database, deadLetters: DeadLettersRepository) {
    this.deadLettered = new Counter({
      name: 'ingest_dead_letters_total',
      help: 'Accepted events this process set aside as dead letters, processing having failed',
      registers: [metrics.registry],
    });
    const logger = this.logger;
    new Gauge({
      name: 'ingest_dead_letters',
      help: 'Dead letters in the instance, waiting to be retried or deleted',
      registers: [metrics.registry],
      async collect() {
        try {
          this.set(await deadLetters.count(database));
        } catch (error) {
          logger.warn(`counting dead letters failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      },
    });
  }

  /** An event was set aside as a dead letter (counted once its transaction commits). */
  deadLetterSetAside(): void {
    this.deadLettered.inc();
  }
}
