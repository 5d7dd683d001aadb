import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { EventStoreModule } from '@faultline/event-store';
import { IssuesModule } from '@faultline/issues';
import { WorkerHost } from '@faultline/platform';
import type { FastifyInstance } from 'fastify';
import { InboundFiltersController } from './api/inbound-filters.controller';
import { ProjectEventsController } from './api/project-events.controller';
import { sdkRoutes } from './api/sdk-routes';
import { AcceptEnvelope } from './application/accept-envelope';
import { EventProcessor } from './application/event-processor';
import { InboundFiltersRepository } from './infrastructure/inbound-filters.repository';
import { IngestQueueRepository } from './infrastructure/ingest-queue.repository';
import { RollupsRepository } from './infrastructure/rollups.repository';

/** The SDK protocol, event processing, and the project read models built from events. */
@Module({
  imports: [CqrsModule, EventStoreModule, IssuesModule],
  controllers: [ProjectEventsController, InboundFiltersController],
  providers: [AcceptEnvelope, EventProcessor, IngestQueueRepository, RollupsRepository, InboundFiltersRepository],
  exports: [EventProcessor],
})
export class IngestModule implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly acceptor: AcceptEnvelope,
    private readonly processor: EventProcessor,
    private readonly workers: WorkerHost,
  ) {}

  onModuleInit(): void {
    this.workers.register(this.processor);
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    // Absent in application contexts without HTTP (the CLI).
    if (fastify) void fastify.register(sdkRoutes(this.acceptor, () => this.processor.wake()));
  }
}
