import { type DynamicModule, Module, type OnModuleInit } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { EventStoreModule, SubscriptionRunnerFactory } from '@faultline/event-store';
import { IssueEventTypes } from '@faultline/issues';
import { WorkerHost } from '@faultline/platform';
import { TicketsController } from './api/tickets.controller';
import { ISSUE_CREATED_SUBSCRIBER, queueTickets } from './application/open-tickets/queue-tickets.handler';
import { TicketOpener } from './application/open-tickets/ticket-opener.worker';
import { TicketRepository } from './infrastructure/ticket.repository';
import { TrackerClient } from './infrastructure/tracker.client';
import { TICKET_TRACKER_CONFIG, type TicketTrackerConfig } from './ticket-tracker.config';

/**
 * Opens a ticket in the configured tracker for every new issue. Two background workers, both run
 * by the platform's WorkerHost (so only in the worker role, drained on shutdown): a durable
 * subscriber of `issues.IssueCreated` that queues tickets, and the opener that calls the tracker.
 */
@Module({})
export class TicketTrackerModule implements OnModuleInit {
  static forRoot(config: TicketTrackerConfig): DynamicModule {
    return {
      module: TicketTrackerModule,
      imports: [CqrsModule, EventStoreModule],
      controllers: [TicketsController],
      providers: [{ provide: TICKET_TRACKER_CONFIG, useValue: config }, TicketRepository, TrackerClient, TicketOpener],
    };
  }

  constructor(
    private readonly workers: WorkerHost,
    private readonly subscriptions: SubscriptionRunnerFactory,
    private readonly tickets: TicketRepository,
    private readonly opener: TicketOpener,
  ) {}

  onModuleInit(): void {
    this.workers.register(
      this.subscriptions.create({
        name: ISSUE_CREATED_SUBSCRIBER,
        filter: { eventTypes: [IssueEventTypes.IssueCreated] },
        handle: queueTickets(this.tickets, () => this.opener.wake()),
      }),
    );
    this.workers.register(this.opener);
  }
}
