import { Inject, Injectable, Logger } from '@nestjs/common';
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
  private loop?: Promise<void>;
  private stopping = false;
  private wakeRequested = false;
  private pause?: { readonly wakeable: boolean; readonly end: () => void };

  constructor(
    private readonly database: Database,
    private readonly tickets: TicketRepository,
    private readonly tracker: TrackerClient,
    @Inject(TICKET_TRACKER_CONFIG) private readonly config: TicketTrackerConfig,
  ) {}

  start(): void {
    if (this.loop) return;
    this.stopping = false;
    this.loop = this.run().finally(() => {
      this.loop = undefined;
    });
  }

  /** Lets the calls in hand finish (each bounded by the tracker time-out) and records them. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.pause?.end();
    await this.loop;
  }

  /** A ticket was queued: look now rather than at the next poll. */
  wake(): void {
    this.wakeRequested = true;
    if (this.pause?.wakeable) this.pause.end();
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
        this.config.publicUrl,
      ),
    );
    if (outcome.kind !== 'opened') this.logger.warn(`ticket for issue ${issueId} (attempt ${ticket.attempts}): ${outcome.error}`);
    await this.tickets.record(this.database, issueId, outcome, retryDelaySeconds(ticket.attempts, this.config.retrySeconds));
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopping) {
      this.wakeRequested = false;
      let handled = 0;
      try {
        handled = await this.runOnce();
        failures = 0;
      } catch (error) {
        failures += 1;
        const delay = Math.min(MAX_ERROR_DELAY_MS, 500 * 2 ** Math.min(failures - 1, 10));
        this.logger.warn(`opening tickets failed (${failures} in a row), retrying in ${delay} ms: ${error instanceof Error ? error.message : String(error)}`);
        await this.sleep(delay, false);
        continue;
      }
      if (handled < BATCH_SIZE) await this.sleep(IDLE_DELAY_MS, true);
    }
  }

  private sleep(ms: number, wakeable: boolean): Promise<void> {
    if (this.stopping || (wakeable && this.wakeRequested)) return Promise.resolve();
    return new Promise((resolve) => {
      const end = () => {
        clearTimeout(timer);
        this.pause = undefined;
        resolve();
      };
      const timer = setTimeout(end, ms);
      this.pause = { wakeable, end };
    });
  }
}
