import { Inject, Injectable, Logger } from '@nestjs/common';
import { issueApiUrl } from '@faultline/issues';
import { PollingLoop } from '@faultline/kernel';
import { type BackgroundWorker, Database } from '@faultline/platform';
import { retryDelaySeconds, ticketRequest } from '../../domain/ticket';
import { TicketRepository, type TicketRow } from '../../infrastructure/ticket.repository';
import { TrackerClient } from '../../infrastructure/tracker.client';
import { TICKET_TRACKER_CONFIG, type TicketTrackerConfig } from '../../ticket-tracker.config';

const BATCH_SIZE = 10;
const IDLE_DELAY_MS = 1_000;
const MAX_ERROR_DELAY_MS = 30_000;

/**
 * Opens the queued tickets: claims due rows (a lease, so processes share the queue), calls the
 * tracker outside any transaction, records the answer. A failed call is retried on the configured
 * schedule with the same idempotency key; a ticket already opened is never called again.
 */
@Injectable()
export class TicketOpener implements BackgroundWorker {
  readonly name = 'ticket-tracker.opener';
  private readonly logger = new Logger('TicketTracker');
  private readonly loop = new PollingLoop({
    runOnce: async () => (await this.runOnce()) >= BATCH_SIZE,
    idleDelayMs: IDLE_DELAY_MS,
    maxRetryDelayMs: MAX_ERROR_DELAY_MS,
    onError: (error, failures, delay) =>
      this.logger.warn(`opening tickets failed (${failures} in a row), retrying in ${delay} ms: ${error instanceof Error ? error.message : String(error)}`),
  });

  constructor(
    private readonly database: Database,
    private readonly tickets: TicketRepository,
    private readonly tracker: TrackerClient,
    @Inject(TICKET_TRACKER_CONFIG) private readonly config: TicketTrackerConfig,
  ) {}

  start(): void {
    this.loop.start();
  }

  /** Lets the calls in hand finish (each bounded by the tracker time-out) and records them. */
  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** A ticket was queued: look now rather than at the next poll. */
  wake(): void {
    this.loop.wake();
  }

  /** Claims and handles one batch of due tickets; answers how many. */
  async runOnce(): Promise<number> {
    const leaseMs = this.config.timeoutMs + 30_000;
    const claimed = await this.tickets.claimDue(this.database, BATCH_SIZE, leaseMs);
    await Promise.all(claimed.map((ticket) => this.open(ticket)));
    return claimed.length;
  }

  private async open(ticket: TicketRow): Promise<void> {
    const issueId = String(ticket.issue_id);
    const outcome = await this.tracker.open(
      issueId,
      ticketRequest(
        {
          issueId,
          organizationId: String(ticket.organization_id),
          projectId: String(ticket.project_id),
          shortId: ticket.short_id,
          title: ticket.title,
          culprit: ticket.culprit,
          level: ticket.level,
        },
        issueApiUrl(this.config.publicUrl, String(ticket.organization_id), issueId),
      ),
    );
    if (outcome.kind !== 'opened') this.logger.warn(`ticket for issue ${issueId} (attempt ${ticket.attempts}): ${outcome.error}`);
    await this.tickets.record(this.database, issueId, outcome, retryDelaySeconds(ticket.attempts, this.config.retrySeconds));
  }
}
