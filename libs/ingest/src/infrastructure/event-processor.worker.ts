import { setImmediate as yieldEventLoop, setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock, ConcurrencyError, newHexId, PollingLoop } from '@faultline/kernel';
import { type IngestedEvent, IssueIngestion } from '@faultline/issues';
import { type BackgroundWorker, Database, isPartitionAttachRace, QueueVacuum, type Transaction } from '@faultline/platform';
import { EventRecorder } from '@faultline/event-store';
import { ReleaseSightings, SourceMapSymbolicator } from '@faultline/releases';
import {
  accepted,
  ERROR_EVENT_STREAM_TYPE,
  errorEventProcessed,
  errorEventStream,
  filtered,
  filterReasonOf,
  invalid,
  matchingFilter,
  normalizeEvent,
  type NormalizedEvent,
  type OutcomeKind,
  parseStorableJson,
  type PreparedEvent,
  prepareEvent,
  scrubPayload,
} from '../domain';
import { EventProcessing } from '../contracts/event-processing';
import { DataScrubbersCache } from './data-scrubbers.cache';
import { DeadLettersRepository } from './dead-letters.repository';
import { InboundFiltersRepository } from './inbound-filters.repository';
import { IngestMetrics } from './ingest-metrics';
import { IngestQueueRepository, type QueuedEvent, type RecordedOutcome } from './ingest-queue.repository';
import { type OutcomeCount, RollupsRepository, type TagObservation, type UserObservation } from './rollups.repository';

const BATCH_SIZE = 200;
const IDLE_POLL_MS = 250;
/** Attempts at an event that fails for a passing reason (a deadlock, a lost connection) before it is set aside. */
const MAX_ATTEMPTS = 10;
/**
 * Attempts at an event that never finished (its processor died: out of memory, aborted) before it
 * is set aside: each is counted by its committed claim before it starts, so a fatal event ends as a
 * dead letter rather than a crash loop.
 */
const MAX_UNFINISHED_ATTEMPTS = 3;
/**
 * How long a claim keeps its events from other claims before its batch takes them: the batch's
 * transaction deletes them first thing and holds them locked however long it runs, so the lease
 * only needs to cover that gap. It is also the pause before the events of a batch whose processor
 * died are tried again, each alone: short, so a restart after a crash picks them up at once.
 */
const CLAIM_LEASE_SECONDS = 10;
/**
 * SQLSTATE classes of failures another attempt may not meet: connection exceptions, transaction
 * rollbacks (deadlocks, serialization failures), insufficient resources, operator intervention.
 */
const TRANSIENT_SQLSTATE_CLASSES = new Set(['08', '40', '53', '57']);
const LOCK_NOT_AVAILABLE = '55P03';
/**
 * A batch that lost a conflict with a concurrent transaction (a deadlock's victim, a serialization
 * failure, a row routed to a default partition while its day's partition was being attached) is
 * tried again whole, as it passes once the other commits; halving it instead would hold the first
 * half's locks while the second half takes its own, out of the order every batch keeps.
 */
const LOCK_CONFLICT_RETRIES = 3;
const LOCK_CONFLICT_SQLSTATES: ReadonlySet<string> = new Set(['40P01', '40001', LOCK_NOT_AVAILABLE]);
/** Events taken off the queue between vacuum passes of its tables: about 60 MB of realistic events. */
const VACUUM_EVERY_EVENTS = 10_000;
/** Batches in flight per process: one is normalising and storing while another holds the hot rows. */
const CONCURRENT_BATCHES = 2;
/** Pause after a part batch: what a batch's fixed cost (a dozen statements) is spread over. */
const LINGER_MS = 50;

/**
 * Takes accepted events off the queue in batches and, per batch in one transaction: normalises
 * them, groups them into issues, stores them, and keeps the tag, user and stats read models.
 * Woken right after an accept commits; polls otherwise, so a crash leaves nothing behind.
 *
 * An event that makes its batch fail is isolated by halving the batch, in the same transaction,
 * so the rest are stored at once; it is then put back for later when the failure may pass, and
 * otherwise set aside in the dead-letter table with its reason, never dropped. An event whose
 * processor dies is found by its lease running out: it is tried again alone, and set aside after
 * MAX_UNFINISHED_ATTEMPTS.
 */
@Injectable()
export class EventProcessor extends EventProcessing implements BackgroundWorker {
  readonly name = 'ingest.event-processor';
  private readonly logger = new Logger('EventProcessor');
  private readonly loops = Array.from(
    { length: CONCURRENT_BATCHES },
    () =>
      new PollingLoop({
        runOnce: async () => {
          const handled = await this.processBatch();
          // A part batch means the queue is nearly empty: let a few more arrive before the next
          // claim, so a steady trickle is stored in batches rather than an event or two at a time.
          if (handled > 0 && handled < BATCH_SIZE) await sleep(LINGER_MS);
          return handled > 0;
        },
        idleDelayMs: IDLE_POLL_MS,
        onError: (error) => this.logger.error(`processing failed: ${describe(error)}`),
      }),
  );

  private readonly vacuum: QueueVacuum;
  /** Batches of this process between their claim and their commit: their events are hidden by the lease. */
  private inFlight = 0;

  constructor(
    private readonly database: Database,
    private readonly queue: IngestQueueRepository,
    private readonly rollups: RollupsRepository,
    private readonly issues: IssueIngestion,
    private readonly filters: InboundFiltersRepository,
    private readonly recorder: EventRecorder,
    private readonly deadLetters: DeadLettersRepository,
    private readonly symbolicator: SourceMapSymbolicator,
    private readonly releaseSightings: ReleaseSightings,
    private readonly metrics: IngestMetrics,
    private readonly scrubbers: DataScrubbersCache,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    super();
    this.vacuum = new QueueVacuum(database, ['ingest.ingest_queue', 'ingest.ingest_outcomes'], VACUUM_EVERY_EVENTS, (error) =>
      this.logger.warn(`vacuuming the ingest queue failed: ${describe(error)}`),
    );
  }

  start(): void {
    for (const loop of this.loops) loop.start();
  }

  async stop(): Promise<void> {
    await Promise.all(this.loops.map((loop) => loop.stop()));
    await this.vacuum.settled();
  }

  wake(): void {
    for (const loop of this.loops) loop.wake();
  }

  /**
   * Processes until no event is due and no background batch of this process is under way; answers
   * how many events this call handled (tests, CLI).
   */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const handled = await this.processBatch();
      total += handled;
      if (handled > 0) continue;
      if (this.inFlight === 0 && !(await this.queue.anyDue(this.database, this.clock.now()))) return total;
      await sleep(10);
    }
  }

  async processBatch(): Promise<number> {
    this.inFlight++;
    try {
      // Committed before processing starts, so a processor that dies has still counted its attempt.
      const claimed = await this.queue.claim(BATCH_SIZE, this.clock.now(), CLAIM_LEASE_SECONDS);
      const handled = await this.database.transaction(async (tx) => {
        const taken = await this.queue.take(tx, claimed);
        const recorded = await this.queue.claimOutcomes(tx, 5000);
        const admitted = recorded.map(admissionOutcome);
        if (taken.length === 0) {
          await this.rollups.addOutcomes(tx, admitted);
          return recorded.length > 0 ? 1 : 0;
        }
        // An abandoned event is claimed alone.
        const unfinished = taken[0].claims - 1;
        if (unfinished >= MAX_UNFINISHED_ATTEMPTS) {
          const letter = await this.deadLetter(
            tx,
            taken[0],
            taken[0].attempts + unfinished,
            `processing did not finish in ${unfinished} attempts (the processor died)`,
          );
          await this.rollups.addOutcomes(tx, [...admitted, letter]);
        } else {
          await this.processIsolating(tx, taken, admitted);
        }
        return taken.length;
      });
      this.vacuum.count(handled);
      return handled;
    } finally {
      this.inFlight--;
    }
  }

  /**
   * Processes the events in a savepoint; if that fails, each half again, down to the events that
   * fail alone, which are set aside. One bad event among 200 costs about 16 partial attempts.
   */
  private async processIsolating(tx: Transaction, events: QueuedEvent[], counted: OutcomeCount[], conflicts = 0): Promise<void> {
    try {
      await tx.inSavepoint(() => this.process(tx, events, counted));
    } catch (error) {
      if (isLockConflict(error) && conflicts < LOCK_CONFLICT_RETRIES) return this.processIsolating(tx, events, counted, conflicts + 1);
      const outcomes = [...counted];
      if (events.length === 1) {
        outcomes.push(...(await this.setAside(tx, events[0], error)));
      } else {
        const middle = Math.ceil(events.length / 2);
        await this.processIsolating(tx, events.slice(0, middle), []);
        await this.processIsolating(tx, events.slice(middle), []);
      }
      await this.rollups.addOutcomes(tx, outcomes);
    }
  }

  /** An event that failed alone: later again if the failure may pass, else a dead letter; answers its outcome, if it has one yet. */
  private async setAside(tx: Transaction, event: QueuedEvent, error: unknown): Promise<OutcomeCount[]> {
    const reason = describe(error);
    const attempts = event.attempts + 1;
    if (isTransient(error) && attempts < MAX_ATTEMPTS) {
      await this.queue.retryLater(tx, event, reason, this.clock.now());
      return [];
    }
    return [await this.deadLetter(tx, event, attempts, reason)];
  }

  /**
   * Set aside for good; answers its outcome, invalid as Relay counts an event its processing failed
   * on, for the caller to add with the batch's others (one rollup statement, its rows in key order).
   * Dead letters are kept until someone acts on them, so they keep the payload scrubbed with the
   * project's rules, as its stored events are; the queue's raw payload lives only until processed.
   * Scrubbing here rather than at admission keeps the SDK's request path free of the work.
   */
  private async deadLetter(tx: Transaction, event: QueuedEvent, attempts: number, reason: string): Promise<OutcomeCount> {
    const payload = scrubPayload(event.payload, await this.scrubbers.scrubber(tx, event.project_id));
    await this.deadLetters.add(tx, { ...event, payload }, attempts, reason);
    tx.afterCommit(() => {
      this.metrics.deadLetterSetAside();
      this.logger.error(`event ${event.event_id} of project ${event.project_id} set aside as a dead letter after ${attempts} attempt(s): ${reason}`);
    });
    return eventOutcome(event, invalid('internal'));
  }

  /**
   * Maps the event's JavaScript exception frames to their original source before it is grouped,
   * keeping the frames as sent in `rawStacktrace` (from which `prepareEvent` tells the culprit the
   * frames gave, to follow the mapped frames).
   */
  private async symbolicate(tx: Transaction, queued: QueuedEvent, event: NormalizedEvent): Promise<void> {
    if (!SOURCE_MAPPED_PLATFORMS.has(event.platform)) return;
    const traced = event.exceptions.filter((exception) => exception.stacktrace && exception.stacktrace.frames.length > 0);
    if (traced.length === 0) return;
    const result = await this.symbolicator.symbolicate(tx, {
      organizationId: queued.organization_id,
      projectId: queued.project_id,
      release: event.release,
      dist: event.dist,
      debugImages: event.debugMeta?.images,
      stacktraces: traced.map((exception) => exception.stacktrace?.frames ?? []),
    });
    traced.forEach((exception, index) => {
      const frames = result.stacktraces[index];
      if (!frames || !exception.stacktrace) return;
      exception.rawStacktrace = exception.stacktrace;
      exception.stacktrace = { ...exception.stacktrace, frames };
    });
    if (result.errors.length > 0) event.errors = result.errors;
  }

  /**
   * Rows every batch updates (issue counters, tag values, users, stats buckets) come last, so a
   * concurrent batch waits for them only at the end of this one.
   */
  private async process(tx: Transaction, claimed: QueuedEvent[], counted: OutcomeCount[]): Promise<void> {
    const ingested: IngestedEvent[] = [];
    const prepared = new Map<string, PreparedEvent>();
    const tags = new Map<string, TagObservation>();
    const users: UserObservation[] = [];
    const outcomes: OutcomeCount[] = [...counted];
    const queuedByKey = new Map<string, QueuedEvent>();
    for (const queued of claimed) {
      const normalized = normalizeEvent(
        { ...(parseStorableJson(queued.payload) as object), event_id: queued.event_id },
        { receivedAt: queued.received_at, clientIp: queued.client_ip ?? undefined, newEventId: newHexId() },
      );
      // Matching a message may take milliseconds (MAX_FILTER_WORD_STEPS_PER_EVENT): other requests are served between them.
      const filter = await matchingFilter(normalized, await this.filters.cached(tx, queued.project_id), yieldEventLoop);
      if (filter) {
        outcomes.push(eventOutcome(queued, filtered(filterReasonOf(filter))));
        continue;
      }
      await this.symbolicate(tx, queued, normalized);
      const preparation = prepareEvent(normalized, await this.scrubbers.scrubber(tx, queued.project_id));
      const { event, fingerprintHash, user, issueTags, projectTags, unhandled } = preparation;
      prepared.set(`${queued.project_id}|${event.eventId}`, preparation);
      queuedByKey.set(`${queued.project_id}|${event.eventId}`, queued);
      ingested.push({
        projectId: queued.project_id,
        projectSlug: queued.project_slug,
        organizationId: queued.organization_id,
        eventId: event.eventId,
        fingerprintHash,
        title: event.title,
        culprit: event.culprit,
        level: event.level,
        platform: event.platform,
        occurredAt: event.timestamp,
        receivedAt: queued.received_at.toISOString(),
        userHash: user?.hash,
        release: event.release,
        tags: issueTags,
        unhandled,
        data: event as unknown as Record<string, unknown>,
      });
      for (const [key, value] of projectTags) {
        const id = `${queued.project_id}|${key}|${value}`;
        const tag = tags.get(id);
        if (tag) {
          tag.count += 1;
          if (event.timestamp < tag.firstSeen) tag.firstSeen = event.timestamp;
          if (event.timestamp > tag.lastSeen) tag.lastSeen = event.timestamp;
        } else {
          tags.set(id, { projectId: queued.project_id, key, value, count: 1, firstSeen: event.timestamp, lastSeen: event.timestamp });
        }
      }
      if (user && event.user) {
        users.push({
          projectId: queued.project_id,
          hash: user.hash,
          id: event.user.id,
          email: event.user.email,
          username: event.user.username,
          ipAddress: event.user.ipAddress,
          name: event.user.name,
          seenAt: event.timestamp,
        });
      }
    }
    const stored = await this.issues.recordEvents(tx, ingested);
    const byKey = new Map(ingested.map((event) => [`${event.projectId}|${event.eventId}`, event]));
    // Accepted once stored, as Sentry counts it; an id the project already has is not stored again.
    const storedKeys = new Set(stored.map(({ projectId, eventId }) => `${projectId}|${eventId}`));
    for (const event of ingested) {
      const key = `${event.projectId}|${event.eventId}`;
      const isFirst = storedKeys.delete(key);
      outcomes.push(eventOutcome(queuedByKey.get(key) as QueuedEvent, isFirst ? accepted : invalid('duplicate')));
    }
    await this.releaseSightings.record(
      tx,
      stored.flatMap(({ projectId, eventId, isNewIssue }) => {
        const { organizationId, release, occurredAt } = byKey.get(`${projectId}|${eventId}`) as IngestedEvent;
        return release ? [{ organizationId, projectId, release, occurredAt, isNewIssue }] : [];
      }),
    );
    await this.recorder.recordNewStreams(
      tx,
      stored.map(({ projectId, eventId, issueId, isNewIssue }) => {
        const { projectSlug, organizationId } = byKey.get(`${projectId}|${eventId}`) as IngestedEvent;
        const { event, user, shownTags } = prepared.get(`${projectId}|${eventId}`) as PreparedEvent;
        return {
          streamId: errorEventStream(projectId, eventId),
          streamType: ERROR_EVENT_STREAM_TYPE,
          event: errorEventProcessed({
            projectId,
            projectSlug,
            organizationId,
            issueId,
            isNewIssue,
            eventId,
            title: event.title,
            culprit: event.culprit,
            message: event.message ?? event.title,
            level: event.level,
            platform: event.platform,
            datetime: event.timestamp,
            release: event.release ?? null,
            environment: event.environment,
            user: user?.tagValue ?? null,
            tags: shownTags,
          }),
        };
      }),
    );
    await this.rollups.addTagValues(tx, [...tags.values()]);
    await this.rollups.addUsers(tx, dedupe(users));
    await this.rollups.addOutcomes(tx, outcomes);
  }
}

/** Platforms whose frames are mapped through uploaded source maps, as Sentry's JavaScript processing does. */
const SOURCE_MAPPED_PLATFORMS = new Set(['javascript', 'node']);

/** An admission's outcome, recorded by the accept path, as the rollups take it. */
function admissionOutcome(row: RecordedOutcome): OutcomeCount {
  return {
    organizationId: row.organization_id,
    projectId: row.project_id,
    at: row.recorded_at,
    outcome: row.outcome,
    category: row.category,
    reason: row.reason,
    quantity: Number(row.quantity),
    timesSeen: row.times_seen,
  };
}

/** What became of one queued event, at the time it arrived. */
function eventOutcome(event: QueuedEvent, kind: OutcomeKind): OutcomeCount {
  return {
    organizationId: event.organization_id,
    projectId: event.project_id,
    at: event.received_at,
    category: event.category,
    ...kind,
    quantity: 1,
    timesSeen: 1,
  };
}

function dedupe(users: UserObservation[]): UserObservation[] {
  const byKey = new Map<string, UserObservation>();
  for (const user of users) byKey.set(`${user.projectId}|${user.hash}`, user);
  return [...byKey.values()];
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isLockConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return isPartitionAttachRace(error) || (typeof code === 'string' && LOCK_CONFLICT_SQLSTATES.has(code));
}

function isTransient(error: unknown): boolean {
  if (error instanceof ConcurrencyError || isLockConflict(error)) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code === LOCK_NOT_AVAILABLE || TRANSIENT_SQLSTATE_CLASSES.has(code.slice(0, 2)));
}
