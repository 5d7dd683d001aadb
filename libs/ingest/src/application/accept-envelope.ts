import { Inject, Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { LRUCache } from 'lru-cache';
import { CLOCK, type Clock, newHexId, normalizeEventId } from '@faultline/kernel';
import {
  type AttachmentRefusal,
  EventAttachmentIntake,
  type EventAttachmentInput,
  type EventAttachmentIntakeResult,
  UserReportIntake,
  type UserReportInput,
} from '@faultline/issues';
import { MonitorCheckInIntake, type CheckInSubmission } from '@faultline/monitors';
import { FindProjectKeyQuery, type ProjectKeyAccess } from '@faultline/projects';
import { SessionIntake, type SessionInput } from '@faultline/releases';
import {
  accepted,
  categoryOfEvent,
  CLIENT_REPORT_LIMITS,
  clientDiscardsOf,
  type CountedOutcome,
  type DataCategory,
  decodeBody,
  decodeBodyPrefix,
  decodeStoreBody,
  EnvelopeError,
  attachmentUploadEnvelope,
  type FormEntry,
  minidumpEnvelope,
  fateOf,
  invalid,
  type InvalidReason,
  type OutcomeKind,
  outcomesOf,
  parseEnvelope,
  publicKeyFrom,
  quantitiesOf,
  rateLimited,
  readEnvelopeHeader,
  reportOfItem,
  storableText,
  sessionsOfItem,
  type Envelope,
  type EnvelopeItem,
  type ParsedUserReport,
  droppedItems,
  quotaQuantities,
  type RateLimit,
} from '../domain';
import { IngestQueueRepository } from '../infrastructure/ingest-queue.repository';
import { RateLimiter } from '../infrastructure/rate-limiter';

/** Documented limits of the SDK endpoints (docs/sending-events.md, "Limits"). */
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
  readonly kind: 'envelope' | 'store' | 'minidump' | 'attachments';
  /** The event a legacy attachment upload names in its path. */
  readonly eventId?: string;
  /** The multipart boundary of a minidump upload is in it. */
  readonly contentType?: string;
  readonly projectId: string;
  readonly body: Buffer;
  readonly contentEncoding?: string;
  readonly authHeader?: string;
  readonly query: Record<string, unknown>;
  readonly clientIp?: string;
}

export interface HttpCheckInRequest {
  readonly projectId: string;
  readonly monitorSlug: string;
  readonly sentryKey?: string;
  readonly authHeader?: string;
  readonly query: Record<string, unknown>;
  readonly body: Buffer;
}

type Refusal = { readonly status: 400 | 401 | 403 | 413 | 415; readonly body: { detail: string } };

/** `rateLimits`: the categories of the envelope that rate limits dropped (with 200, the rest was kept). */
export type AcceptResult =
  | { readonly status: 200; readonly body: { id: string | null }; readonly rateLimits?: readonly RateLimit[] }
  | Refusal
  | { readonly status: 429; readonly body: { detail: string }; readonly rateLimits: readonly RateLimit[] };

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
    private readonly queries: QueryBus,
    private readonly queue: IngestQueueRepository,
    private readonly userReports: UserReportIntake,
    private readonly rateLimiter: RateLimiter,
    private readonly attachments: EventAttachmentIntake,
    private readonly checkIns: MonitorCheckInIntake,
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
      envelope =
        request.kind === 'envelope'
          ? parseEnvelope(body, INGEST_LIMITS)
          : request.kind === 'store'
            ? await storeAsEnvelope(body)
            : request.kind === 'minidump'
              ? minidumpEnvelope(await readForm(body, request.contentType), newHexId())
              : attachmentUploadEnvelope(await readForm(body, request.contentType), request.eventId);
    } catch (error) {
      if (error instanceof EnvelopeError) {
        const status = error.reason === 'too_large' ? 413 : error.reason === 'unsupported_encoding' ? 415 : 400;
        return { status, body: { detail: error.message } };
      }
      throw error;
    }

    const now = this.clock.now();
    const record = (outcomes: readonly CountedOutcome[]) => this.queue.admit({ receivedAt: now, events: [], outcomes: forKey(key, outcomes) });
    // A refused envelope keeps none of its items: each is counted invalid, for the reason of the refusal.
    const refuse = async (status: 400 | 413, reason: InvalidReason, detail: string): Promise<Refusal> => {
      await record(envelope.items.flatMap((item) => outcomesOf(quantitiesOf(item), invalid(reason))));
      return { status, body: { detail } };
    };
    const events: Array<{ eventId: string; category: DataCategory; payload: string }> = [];
    const outcomes: CountedOutcome[] = [];
    const reports: ParsedUserReport[] = [];
    const attachmentItems: EnvelopeItem[] = [];
    const checkIns: Buffer[] = [];
    const sessions: SessionInput[] = [];
    let clientReports = 0;
    // The limits are decided on the items' types alone, before any is read: an item they drop costs nothing more.
    const types = envelope.items.map((item) => item.type);
    const rateLimits = await this.rateLimiter.limits(key, quotaQuantities(types), now);
    const errorsLimited = rateLimits.find((limit) => limit.category === 'error') ?? null;
    // An event's attachments go with it, as Relay drops them with their rate-limited event.
    const dropped = droppedItems(types, rateLimits).map((limit, index) => limit ?? (types[index] === 'attachment' ? errorsLimited : null));
    for (const [index, item] of envelope.items.entries()) {
      // store/ sends one event, not an envelope of items.
      const where = request.kind === 'store' ? '' : `item ${index + 1}: `;
      const fate = fateOf(item.type);
      const limit = dropped[index];
      if (limit) {
        outcomes.push(...outcomesOf(quantitiesOf(item), rateLimited(limit.reason)));
      } else if (fate === 'client_report') {
        if (++clientReports <= CLIENT_REPORT_LIMITS.maxPerEnvelope) outcomes.push(...clientDiscardsOf(item.payload));
      } else if (fate === 'keep' && item.type === 'attachment') {
        attachmentItems.push(item);
      } else if (fate === 'keep' && item.type === 'check_in') {
        checkIns.push(item.payload);
      } else if (fate === 'keep' && (item.type === 'session' || item.type === 'sessions')) {
        const itemSessions = sessionsOfItem(item.type, item.payload, now);
        if (!itemSessions || 'problem' in itemSessions) outcomes.push(...outcomesOf(quantitiesOf(item), invalid('payload')));
        else {
          sessions.push(...itemSessions.map((session) => ({ ...session, projectId: key.projectId, organizationId: key.organizationId })));
          outcomes.push(...outcomesOf(quantitiesOf(item), accepted));
        }
      } else if (fate === 'keep') {
        const report = reportOfItem(item.type, item.payload);
        // A malformed report is dropped and counted; the envelope's events are kept.
        if (!report || 'problem' in report) outcomes.push(...outcomesOf(quantitiesOf(item), invalid('payload')));
        else reports.push(report);
      } else if (fate !== 'process') {
        outcomes.push(...outcomesOf(quantitiesOf(item), fate));
      } else {
        if (item.payload.length > INGEST_LIMITS.maxEventBytes) {
          return refuse(413, 'too_large', `${where}event of ${item.payload.length} bytes exceeds ${INGEST_LIMITS.maxEventBytes}`);
        }
        const text = item.payload.toString('utf8');
        let payload: Record<string, unknown>;
        try {
          payload = JSON.parse(text) as Record<string, unknown>;
        } catch {
          return refuse(400, 'invalid_json', `${where}event payload is not valid JSON`);
        }
        if (payload === null || typeof payload !== 'object' || Array.isArray(payload as unknown)) {
          return refuse(400, 'payload', `${where}event payload must be a JSON object`);
        }
        // Stored as sent: the queue row's event_id wins over the payload's when the worker reads it.
        events.push({ eventId: eventIdOf(payload, envelope.header.event_id), category: categoryOfEvent(payload.type), payload: text });
      }
    }

    // 429 only when nothing of the request is kept; else 200, the header naming what was dropped.
    if (rateLimits.length > 0 && !dropped.some((limit) => limit === null)) {
      await record(outcomes);
      return { status: 429, body: { detail: rateLimitDetail(rateLimits) }, rateLimits };
    }
    await this.recordCheckIns(key, checkIns, now, outcomes);
    // Sessions are kept as they arrive (folded into hourly counts), so a 200 means they are durable.
    await this.sessions.record(sessions);
    // Reports first: kept idempotently by their id, so an SDK retrying after a failed admission
    // sends them again harmlessly, and a 200 means both are durable.
    const refused = await this.userReports.record(
      reports.map((report): UserReportInput => ({ ...report, projectId: key.projectId, receivedAt: now.toISOString() })),
    );
    // Too late to change: dropped and counted, as Sentry does ("Duplicate report").
    if (refused.length > 0) outcomes.push({ ...invalid('duplicate'), category: 'feedback', quantity: refused.length, timesSeen: refused.length });
    const kept = reports.length - refused.length;
    if (kept > 0) outcomes.push({ ...accepted, category: 'feedback', quantity: kept, timesSeen: kept });
    // Attachments are committed before the events are queued: a 200 means both are durable, and an
    // SDK's retry after a failed admission stores nothing twice (they are kept by event and content).
    const attachmentResults = await this.keepAttachments(key, attachmentItems, envelope.header.event_id ?? events[0]?.eventId, now);
    outcomes.push(...attachmentItems.flatMap((item, index) => outcomesOf(quantitiesOf(item), attachmentOutcome(attachmentResults[index]))));
    await this.queue.admit({
      receivedAt: now,
      events: events.map((event) => ({
        ...event,
        projectId: key.projectId,
        projectSlug: key.projectSlug,
        organizationId: key.organizationId,
        clientIp: request.clientIp,
      })),
      outcomes: forKey(key, outcomes),
    });
    onCommitted();
    return { status: 200, body: { id: events[0]?.eventId ?? envelope.header.event_id ?? null }, ...(rateLimits.length > 0 ? { rateLimits } : {}) };
  }

  /** Attachments name their event in the envelope header (SDKs set it), else they go with the envelope's event. */
  private async keepAttachments(
    key: ProjectKeyAccess,
    items: readonly EnvelopeItem[],
    eventId: string | undefined,
    now: Date,
  ): Promise<EventAttachmentIntakeResult[]> {
    const id = normalizeEventId(eventId);
    if (!id) return items.map(() => notKept('missing_event_id'));
    return [
      ...(await this.attachments.keep(
        items.map((item): EventAttachmentInput => ({
          organizationId: key.organizationId,
          projectId: key.projectId,
          eventId: id,
          // As PostgreSQL can store them (no NUL, no lone surrogates), as an event's text is.
          type: item.header.attachment_type && storableText(item.header.attachment_type),
          name: item.header.filename && storableText(item.header.filename),
          contentType: item.header.content_type,
          data: item.payload,
          receivedAt: now.toISOString(),
        })),
      )),
    ];
  }

  /** Check-ins are recorded by the monitors context before the answer, like user reports; a repeat changes nothing. */
  private async recordCheckIns(key: ProjectKeyAccess, payloads: readonly Buffer[], now: Date, outcomes: CountedOutcome[]): Promise<readonly string[]> {
    if (payloads.length === 0) return [];
    const receipt = await this.checkIns.record(
      payloads.map((payload): CheckInSubmission => ({ projectId: key.projectId, organizationId: key.organizationId, payload, receivedAt: now.toISOString() })),
    );
    // Dropped: invalid, of an unknown monitor, or over a monitor's budget.
    const kept = payloads.length - receipt.dropped;
    if (kept > 0) outcomes.push({ ...accepted, category: 'monitor', quantity: kept, timesSeen: kept });
    if (receipt.dropped > 0) outcomes.push({ ...invalid('payload'), category: 'monitor', quantity: receipt.dropped, timesSeen: receipt.dropped });
    return receipt.invalid;
  }

  /**
   * Sentry's HTTP check-in (`/api/{project_id}/cron/{monitor_slug}/{sentry_key}/`): the DSN key in
   * the path (or the usual places), the check-in in the query string or a JSON body. Answers 202
   * as Relay does once the check-in is read (kept, or dropped by a budget), 400 with the reason when it cannot be,
   * and 429 when a rate limit of the key or the organization covers the `monitor` category, as for envelopes.
   */
  async acceptHttpCheckIn(
    request: HttpCheckInRequest,
  ): Promise<{ status: 202 } | Refusal | { readonly status: 429; readonly body: { detail: string }; readonly rateLimits: readonly RateLimit[] }> {
    const authenticated = await this.authenticate({
      kind: 'store',
      projectId: request.projectId,
      body: Buffer.alloc(0),
      authHeader: request.authHeader,
      query: request.sentryKey ? { ...request.query, sentry_key: request.sentryKey } : request.query,
    });
    if ('status' in authenticated) return authenticated;
    let body: Record<string, unknown> = {};
    if (request.body.length > 0) {
      try {
        const parsed: unknown = JSON.parse(request.body.toString('utf8'));
        if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
      } catch {
        return { status: 400, body: { detail: 'the body must be a JSON object' } };
      }
    }
    const field = (name: string) => body[name] ?? request.query[name];
    const duration = field('duration');
    const checkIn = {
      ...body,
      monitor_slug: request.monitorSlug,
      check_in_id: field('check_in_id') ?? newHexId(),
      status: field('status'),
      environment: field('environment'),
      duration: typeof duration === 'string' && duration !== '' ? Number(duration) : duration,
    };
    const outcomes: CountedOutcome[] = [];
    const now = this.clock.now();
    const rateLimits = await this.rateLimiter.limits(authenticated, quotaQuantities(['check_in']), now);
    const [limit] = droppedItems(['check_in'], rateLimits);
    if (limit) {
      const quantities = [{ category: 'monitor' as const, quantity: 1 }];
      await this.queue.admit({ receivedAt: now, events: [], outcomes: forKey(authenticated, outcomesOf(quantities, rateLimited(limit.reason))) });
      return { status: 429, body: { detail: rateLimitDetail(rateLimits) }, rateLimits };
    }
    const [problem] = await this.recordCheckIns(authenticated, [Buffer.from(JSON.stringify(checkIn))], now, outcomes);
    await this.queue.admit({ receivedAt: now, events: [], outcomes: forKey(authenticated, outcomes) });
    return problem ? { status: 400, body: { detail: problem } } : { status: 202 };
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

const SCOPE_NAMES = { key: 'this DSN key', organization: 'this organization' } as const;

function rateLimitDetail(limits: readonly RateLimit[]): string {
  if (limits.some((limit) => limit.reason === 'spike_protection')) return 'Spike protection is dropping the errors of this organization';
  return `Rate limit of ${SCOPE_NAMES[limits[0].scope]} exceeded`;
}

const notKept = (reason: AttachmentRefusal): EventAttachmentIntakeResult => ({ kept: false, reason });

/** The outcome of an attachment: kept, or why not (over the organization's storage: a quota, as Relay counts it). */
function attachmentOutcome(result: EventAttachmentIntakeResult): OutcomeKind {
  if (result.kept) return accepted;
  switch (result.reason) {
    case 'too_large':
      return invalid('too_large');
    case 'missing_event_id':
      return invalid('payload');
    default:
      return rateLimited(result.reason);
  }
}

function forKey(key: ProjectKeyAccess, outcomes: readonly CountedOutcome[]) {
  return outcomes.map((outcome) => ({ ...outcome, projectId: key.projectId, organizationId: key.organizationId }));
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

/** A multipart/form-data body (already within the body limit) read with the platform's own FormData, files as bytes. */
async function readForm(body: Buffer, contentType: string | undefined): Promise<FormEntry[]> {
  if (!contentType?.toLowerCase().startsWith('multipart/form-data')) throw new EnvelopeError('an upload must be multipart/form-data');
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new EnvelopeError('the multipart body cannot be read');
  }
  const entries: FormEntry[] = [];
  for (const [name, value] of form) {
    entries.push(
      typeof value === 'string' ? [name, value] : [name, { filename: value.name, contentType: value.type, data: Buffer.from(await value.arrayBuffer()) }],
    );
  }
  return entries;
}
