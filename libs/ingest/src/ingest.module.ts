import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { EventRecorder, EventStoreModule } from '@faultline/event-store';
import { IssuesModule } from '@faultline/issues';
import { MonitorsModule } from '@faultline/monitors';
import { RetentionSchedule, WorkerHost } from '@faultline/platform';
import { IdentityEventTypes } from '@faultline/identity';
import { ProjectEventTypes, ProjectsModule } from '@faultline/projects';
import { ReleasesModule } from '@faultline/releases';
import type { FastifyInstance } from 'fastify';
import { DeadLettersController } from './api/dead-letters.controller';
import { InboundFiltersController } from './api/inbound-filters.controller';
import { OrganizationStatsController } from './api/organization-stats.controller';
import { ProjectEventsController } from './api/project-events.controller';
import { RateLimitsController } from './api/rate-limits.controller';
import { sdkRoutes } from './api/sdk-routes';
import { AcceptEnvelope } from './application/accept-envelope';
import { DeleteDeadLettersHandler } from './application/commands/delete-dead-letters/delete-dead-letters.handler';
import { RetryDeadLettersHandler } from './application/commands/retry-dead-letters/retry-dead-letters.handler';
import { ChangeRateLimitsHandler } from './application/commands/change-rate-limits/change-rate-limits.handler';
import { EventProcessor } from './infrastructure/event-processor.worker';
import { EventProcessing } from './contracts/event-processing';
import { SpikeProtectionEvaluation } from './contracts/spike-protection-evaluation';
import { ListDeadLettersHandler } from './application/queries/list-dead-letters.handler';
import { DeadLettersRepository } from './infrastructure/dead-letters.repository';
import { IngestMetrics } from './infrastructure/ingest-metrics';
import { DataScrubbersCache } from './infrastructure/data-scrubbers.cache';
import { InboundFiltersRepository } from './infrastructure/inbound-filters.repository';
import { IngestQueueRepository } from './infrastructure/ingest-queue.repository';
import { ProjectReadModelsRepository } from './infrastructure/project-read-models.repository';
import { OrganizationLimitsCache } from './infrastructure/organization-limits.cache';
import { RateLimiter } from './infrastructure/rate-limiter';
import { rateLimitsConfigProvider } from './infrastructure/rate-limits-config';
import { RateLimitsRepository } from './infrastructure/rate-limits.repository';
import { OutcomeStatsRepository } from './infrastructure/outcome-stats.repository';
import { RollupsRepository } from './infrastructure/rollups.repository';
import { StatsRetentionRepository } from './infrastructure/stats-retention.repository';
import { StatsPartitionsRepository } from './infrastructure/stats-partitions.repository';
import { StatsPartitionsWorker } from './infrastructure/stats-partitions.worker';
import { SpikeProtectionWorker } from './infrastructure/spike-protection.worker';

/** The SDK protocol, event processing (with its dead letters), and the project read models built from events. */
@Module({
  imports: [CqrsModule, EventStoreModule, IssuesModule, MonitorsModule, ProjectsModule, ReleasesModule],
  controllers: [ProjectEventsController, InboundFiltersController, DeadLettersController, RateLimitsController, OrganizationStatsController],
  providers: [
    ProjectReadModelsRepository,
    AcceptEnvelope,
    EventProcessor,
    // A factory rather than useExisting, so the compiler checks that the processor keeps the port's shape.
    { provide: EventProcessing, useExisting: EventProcessor },
    IngestQueueRepository,
    RollupsRepository,
    OutcomeStatsRepository,
    InboundFiltersRepository,
    DataScrubbersCache,
    DeadLettersRepository,
    IngestMetrics,
    RetryDeadLettersHandler,
    DeleteDeadLettersHandler,
    ListDeadLettersHandler,
    rateLimitsConfigProvider,
    RateLimitsRepository,
    OrganizationLimitsCache,
    RateLimiter,
    SpikeProtectionWorker,
    { provide: SpikeProtectionEvaluation, useExisting: SpikeProtectionWorker },
    ChangeRateLimitsHandler,
    StatsRetentionRepository,
    StatsPartitionsRepository,
    StatsPartitionsWorker,
  ],
  exports: [SpikeProtectionEvaluation],
})
export class IngestModule implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly acceptor: AcceptEnvelope,
    private readonly processor: EventProcessor,
    private readonly workers: WorkerHost,
    private readonly retention: RetentionSchedule,
    private readonly statsRetention: StatsRetentionRepository,
    private readonly statsPartitions: StatsPartitionsWorker,
    private readonly recorder: EventRecorder,
    private readonly spikes: SpikeProtectionWorker,
    private readonly scrubbers: DataScrubbersCache,
  ) {}

  onModuleInit(): void {
    this.workers.register(this.processor);
    this.workers.register(this.spikes);
    this.workers.register(this.statsPartitions);
    this.retention.register(this.statsRetention);
    // A key or data privacy setting changed in this process applies at once (elsewhere when the caches expire).
    this.recorder.onCommitted((events) => {
      for (const event of events) {
        if (event.type === ProjectEventTypes.ProjectKeyUpdated || event.type === ProjectEventTypes.ProjectKeyDeleted) {
          this.acceptor.forgetKey(String(event.data.publicKey));
        }
        if (event.type === ProjectEventTypes.ProjectUpdated) this.scrubbers.forgetProject(String(event.data.projectId));
        // A moved project's keys now answer for another organization (its rate limits, its data privacy).
        if (event.type === ProjectEventTypes.ProjectTransferred) {
          for (const publicKey of event.data.publicKeys as string[]) this.acceptor.forgetKey(publicKey);
          this.scrubbers.forgetProject(String(event.data.projectId));
        }
        if (event.type === IdentityEventTypes.OrganizationUpdated) this.scrubbers.forgetAll();
      }
    });
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    // Absent in application contexts without HTTP (the CLI).
    if (fastify) void fastify.register(sdkRoutes(this.acceptor, () => this.processor.wake()));
  }
}
