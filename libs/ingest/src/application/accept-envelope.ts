import { Inject, Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { LRUCache } from 'lru-cache';
import { CLOCK, type Clock, newHexId, normalizeEventId } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { UserReportIntake, type UserReportInput } from '@faultline/issues';
import { FindProjectKeyQuery, type ProjectKeyAccess } from '@faultline/projects';
import { SessionIntake, type SessionInput } from '@faultline/releases';
import {
  decodeBody,
  decodeBodyPrefix,
  decodeStoreBody,
  EnvelopeError,
  parseEnvelope,
  publicKeyFrom,
  readEnvelopeHeader,
  reportOfItem,
  sessionsOfItem,
  type Envelope,
  type ParsedUserReport,
  type QuotaCategory,
  type QuotaLimit,
} from '../domain';
import { IngestQueueRepository, type OutcomeRow } from '../infrastructure/ingest-queue.repository';

/** Documented limits of the SDK endpoints (README, "Sending events"). */
export const INGEST_LIMITS = {
  /** As sent (possibly compressed). */
  maxBodyBytes: 20 * 1024 * 1024,
  /** After decompression. */
  maxEnvelopeBytes: 50 * 1024 * 1024,
  maxItems: 100,
  maxItemBytes: 20 * 1024 * 1024,
  maxEventBytes: 1024 * 1024,
} as const;

/** How much of a tunnelled envelope is decompressed to find the DSN in its header line. */
const MAX_ENVELOPE_HEADER_BYTES = 64 * 1024;

export interface AcceptRequest {
  readonly kind: 'envelope' | 'store';
  readonly projectId: string;
  readonly body: Buffer;
  readonly contentEncoding?: string;
  readonly authHeader?: string;
  readonly query: Record<string, unknown>;
  readonly clientIp?: string;
}

type Refusal = { readonly status: 400 | 401 | 403 | 413 | 415; readonly body: { detail: string } };

/** `rateLimits`: the categories of the envelope the key's rate limit dropped (with 200, the rest was kept). */
export type AcceptResult =
  | { readonly status: 200; readonly body: { id: string | null }; readonly rateLimits?: readonly QuotaLimit[] }
  | Refusal
  | { readonly status: 429; readonly body: { detail: string }; readonly rateLimits: readonly QuotaLimit[] };

const EVENT_ITEM_TYPES = new Set(['event']);

/** The outcome category of each item type (events are queued, user reports kept, the rest counted). */
function categoryOf(type: string): string {
  switch (type) {
    case 'event':
      return 'error';
    case 'transaction':
    case 'span':
      return 'transaction';
    case 'session':
    case 'sessions':
      return 'session';
    case 'attachment':
      return 'attachment';
    case 'client_report':
      return 'client_report';
    default:
      return type;
  }
}

const KEY_CACHE_MS = 5_000;
const CACHED_KEYS = 10_000;

/**
 * The SDK accept path: authenticate by DSN key, admit (rate limits), and make the events durable
 * in the ingest queue before answering 200. Processing happens in the workers.
 */
@Injectable()
export class AcceptEnvelope {
  /** Cached briefly, one lookup in flight per key: a burst from one SDK costs one query. Unknown keys are kept too (boxed). */
  private readonly keys = new LRUCache<string, { access: ProjectKeyAccess | null }>({
    max: CACHED_KEYS,
    ttl: KEY_CACHE_MS,
    fetchMethod: async (publicKey) => ({
      access: await this.queries.execute<FindProjectKeyQuery, ProjectKeyAccess | null>(new FindProjectKeyQuery(publicKey)),
    }),
    // A lookup cut short by forgetKey() still answers the requests waiting for it; lru-cache then does not keep it.
    ignoreFetchAbort: true,
  });

  constructor(
    private readonly database: Database,
    private readonly queries: QueryBus,
    private readonly queue: IngestQueueRepository,
    private readonly userReports: UserReportIntake,
    private readonly sessions: SessionIntake,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async accept(request: AcceptRequest, onCommitted: () => void): Promise<AcceptResult> {
    let key: ProjectKeyAccess;
    let envelope: Envelope;
    try {
      // The key is checked before the body is decompressed, so a request without a valid key
      // costs no more than reading it.
      const authenticated = await this.authenticate(request);
      if ('status' in authenticated) return authenticated;
      key = authenticated;
      const body = await decodeBody(request.body, request.contentEncoding, INGEST_LIMITS.maxEnvelopeBytes);
      envelope = request.kind === 'envelope' ? parseEnvelope(body, INGEST_LIMITS) : await storeAsEnvelope(body);
    } catch (error) {
      if (error instanceof EnvelopeError) {
        const status = error.reason === 'too_large' ? 413 : error.reason === 'unsupported_encoding' ? 415 : 400;
        return { status, body: { detail: error.message } };
      }
      throw error;
    }

    const events: Array<{ eventId: string; payload: string }> = [];
    const outcomes: OutcomeRow[] = [];
    const reports: ParsedUserReport[] = [];
    const sessions: SessionInput[] = [];
    const now = this.clock.now();
    for (const [index, item] of envelope.items.entries()) {
      // store/ sends one event, not an envelope of items.
      const where = request.kind === 'envelope' ? `item ${index + 1}: ` : '';
      const category = categoryOf(item.type);
      outcomes.push({ projectId: key.projectId, outcome: 'received', category, quantity: 1 });
      const report = reportOfItem(item.type, item.payload);
      // A malformed report is dropped and counted; the envelope's events are kept.
      if (report && 'problem' in report) outcomes.push({ projectId: key.projectId, outcome: 'rejected', category, quantity: 1, reason: 'invalid' });
      else if (report) reports.push(report);
      const itemSessions = sessionsOfItem(item.type, item.payload, now);
      if (itemSessions && 'problem' in itemSessions) outcomes.push({ projectId: key.projectId, outcome: 'rejected', category, quantity: 1, reason: 'invalid' });
      else if (itemSessions) {
        sessions.push(...itemSessions.map((session) => ({ ...session, projectId: key.projectId, organizationId: key.organizationId })));
        outcomes.push({ projectId: key.projectId, outcome: 'accepted', category, quantity: 1 });
      }
      if (!EVENT_ITEM_TYPES.has(item.type)) continue;
      if (item.payload.length > INGEST_LIMITS.maxEventBytes) {
        return { status: 413, body: { detail: `${where}event of ${item.payload.length} bytes exceeds ${INGEST_LIMITS.maxEventBytes}` } };
      }
      const text = item.payload.toString('utf8');
      let payload: Record<string, unknown>;
      try {
        payload = JSON.parse(text) as Record<string, unknown>;
      } catch {
        return { status: 400, body: { detail: `${where}event payload is not valid JSON` } };
      }
      if (payload === null || typeof payload !== 'object' || Array.isArray(payload as unknown)) {
        return { status: 400, body: { detail: `${where}event payload must be a JSON object` } };
      }
      // Stored as sent: the queue row's event_id wins over the payload's when the worker reads it.
      events.push({ eventId: eventIdOf(payload, envelope.header.event_id), payload: text });
    }

    // Sessions are kept as they arrive (folded into hourly counts), so a 200 means they are durable;
    // no key rate limit category covers them.
    await this.sessions.record(sessions);
    const rateLimits = await this.overRateLimit(key, { error: events.length, user_report: reports.length }, now);
    for (const { category } of rateLimits) {
      const dropped = category === 'error' ? events.splice(0) : reports.splice(0);
      outcomes.push({ projectId: key.projectId, outcome: 'rejected', category, quantity: dropped.length, reason: 'key_quota' });
    }
    if (rateLimits.length > 0 && events.length === 0 && reports.length === 0) {
      await this.queue.admit({ receivedAt: now, events: [], outcomes });
      return { status: 429, body: { detail: 'Rate limit of this DSN key exceeded' }, rateLimits };
    }
    // Reports first: kept idempotently by their id, so an SDK retrying after a failed admission
    // sends them again harmlessly, and a 200 means both are durable.
    const refused = await this.userReports.record(
      reports.map((report): UserReportInput => ({ ...report, projectId: key.projectId, receivedAt: now.toISOString() })),
    );
    // Too late to change: dropped and counted, as Sentry does ("Duplicate report").
    if (refused.length > 0)
      outcomes.push({ projectId: key.projectId, outcome: 'rejected', category: 'user_report', quantity: refused.length, reason: 'duplicate_report' });
    await this.queue.admit({
      receivedAt: now,
      events: events.map((event) => ({
        ...event,
        projectId: key.projectId,
        projectSlug: key.projectSlug,
        organizationId: key.organizationId,
        clientIp: request.clientIp,
      })),
      outcomes,
    });
    onCommitted();
    return { status: 200, body: { id: events[0]?.eventId ?? envelope.header.event_id ?? null }, ...(rateLimits.length > 0 ? { rateLimits } : {}) };
  }

  /** The categories whose window of the key's rate limit this envelope overruns (each counted, whatever the others). */
  private async overRateLimit(key: ProjectKeyAccess, quantities: Record<QuotaCategory, number>, now: Date): Promise<QuotaLimit[]> {
    if (!key.rateLimit) return [];
    const sent = (Object.entries(quantities) as Array<[QuotaCategory, number]>).filter(([, quantity]) => quantity > 0);
    if (sent.length === 0) return [];
    const window = await this.queue.countAgainstRateLimit(
      this.database,
      key.keyId,
      key.rateLimit.windowSeconds,
      sent.map(([category, quantity]) => ({ category, quantity })),
      now,
    );
    const retryAfterSeconds = Math.max(1, Math.ceil((window.windowEnds.getTime() - now.getTime()) / 1000));
    const limit = key.rateLimit.count;
    return window.counts.filter(({ count }) => count > limit).map(({ category }) => ({ category, retryAfterSeconds }));
  }

  /**
   * The request's DSN key, or why it is refused. A key in the `X-Sentry-Auth` header or the query
   * string needs nothing of the body. Only an envelope without either (a tunnel) is opened, and
   * only as far as its header line: at most MAX_ENVELOPE_HEADER_BYTES are decompressed for it.
   */
  private async authenticate(request: AcceptRequest): Promise<ProjectKeyAccess | Refusal> {
    let credentials = publicKeyFrom({ authHeader: request.authHeader, query: request.query });
    if (!credentials && request.kind === 'envelope') {
      const start = await decodeBodyPrefix(request.body, request.contentEncoding, MAX_ENVELOPE_HEADER_BYTES);
      credentials = publicKeyFrom({ envelopeDsn: readEnvelopeHeader(start, MAX_ENVELOPE_HEADER_BYTES).dsn });
    }
    if (!credentials) return { status: 401, body: { detail: 'Missing DSN public key (X-Sentry-Auth header, sentry_key parameter or envelope dsn)' } };
    const key = await this.findKey(credentials.publicKey);
    if (!key) return { status: 401, body: { detail: 'Unknown DSN public key' } };
    if (key.projectId !== request.projectId) return { status: 403, body: { detail: 'The DSN key does not belong to this project' } };
    if (!key.isActive) return { status: 403, body: { detail: 'The DSN key is disabled' } };
    return key;
  }

  /** A key changed or deleted: looked up again at its next use. */
  forgetKey(publicKey: string): void {
    this.keys.delete(publicKey);
  }

  private async findKey(publicKey: string): Promise<ProjectKeyAccess | null> {
    return (await this.keys.forceFetch(publicKey)).access;
  }
}

function eventIdOf(payload: Record<string, unknown>, headerEventId: unknown): string {
  // The payload's id wins when it is a string, even one that is no event id (it then gets a new one).
  const candidate = typeof payload.event_id === 'string' ? payload.event_id : headerEventId;
  return normalizeEventId(candidate) ?? newHexId();
}

/** The legacy store endpoint carries one event as the whole body. */
async function storeAsEnvelope(body: Buffer): Promise<Envelope> {
  if (body.length === 0) throw new EnvelopeError('empty body: send the event as JSON');
  const payload = await decodeStoreBody(body, INGEST_LIMITS.maxEnvelopeBytes);
  return { header: {}, items: [{ type: 'event', header: { type: 'event' }, payload }] } as Envelope;
}
