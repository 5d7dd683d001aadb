import { ConcurrencyError, newUuid, type DomainEvent, type EventMetadata, type RecordedEvent } from '@faultline/kernel';
// Type-only: the platform barrel also carries Nest modules, which this framework-light file avoids.
import type { Database, Sql, Transaction } from '@faultline/platform';
import type { ExpectedVersion, GlobalPosition, ReadAllFilter } from './contracts';

/** The unique constraint that makes optimistic concurrency work (named in the migration). */
const STREAM_VERSION_CONSTRAINT = 'events_stream_id_version_key';
const UNIQUE_VIOLATION = '23505';

const COLUMN_NAMES = [
  'global_position',
  'stream_id',
  'stream_type',
  'version',
  'event_id',
  'event_type',
  'schema_version',
  'data',
  'metadata',
  'recorded_at',
] as const;
const COLUMNS = COLUMN_NAMES.join(', ');

interface EventRow {
  global_position: string;
  stream_id: string;
  stream_type: string;
  version: number;
  event_id: string;
  event_type: string;
  schema_version: number;
  data: Record<string, unknown>;
  metadata: EventMetadata;
  recorded_at: Date | string;
}

/**
 * The append-only `events` table. Every method takes the connection to use, so appends and
 * checkpoints join the caller's unit of work (Rule 4: state, events and effects commit together).
 */
export class EventStore {
  /** The database this store lives in; callers pass a transaction or this to each method. */
  constructor(readonly database: Database) {}

  /**
   * Appends `events` to a stream inside `tx` and answers them as recorded.
   *
   * Conflicts are detected by the unique (stream_id, version) constraint alone: a violation becomes
   * a ConcurrencyError. On PostgreSQL that error also aborts the caller's transaction, which is
   * intended: `Database.transaction(work, { retries })` runs the whole unit again.
   */
  async append(
    tx: Sql,
    streamId: string,
    streamType: string,
    expectedVersion: ExpectedVersion,
    events: readonly DomainEvent[],
    metadata: EventMetadata = {},
  ): Promise<RecordedEvent[]> {
    if (!streamId) throw new TypeError('streamId is required');
    if (!streamType) throw new TypeError('streamType is required');
    if (events.length === 0) return [];
    for (const event of events) assertStorable(event);

    // 'any' reads the current version and appends after it. That read is not a lock: a writer that
    // slips in between takes the same version first and this append fails with ConcurrencyError,
    // exactly as if a number had been given.
    const base = expectedVersion === 'any' ? await this.currentVersion(tx, streamId) : toVersion(expectedVersion);

    const params: unknown[] = [streamId, streamType, JSON.stringify(metadata), base];
    const rows = events.map((event, index) => {
      const at = params.length;
      params.push(base + index + 1, newUuid(), event.type, event.schemaVersion, JSON.stringify(event.data));
      return `($${at + 1}::integer, $${at + 2}::uuid, $${at + 3}::text, $${at + 4}::integer, $${at + 5}::jsonb)`;
    });

    // One multi-row INSERT. The WHERE clause is a validity check within the same statement, not the
    // concurrency control: it refuses an expected version the stream never reached (which would leave
    // a gap), and a predecessor written by a transaction with a newer id than ours (readers order by
    // transaction id, so that would put this stream's versions out of order in the global feed; the
    // retried unit gets a fresh, newer id). Either way nothing is written and the caller sees a
    // ConcurrencyError. Two writers at the same expected version both pass it; the constraint decides.
    const text = `
      INSERT INTO event_store.events (stream_id, stream_type, version, event_id, event_type, schema_version, data, metadata)
      SELECT $1::text, $2::text, v.version, v.event_id, v.event_type, v.schema_version, v.data, $3::jsonb
      FROM (VALUES ${rows.join(', ')}) AS v (version, event_id, event_type, schema_version, data)
      WHERE $4::integer = 0 OR EXISTS (
        SELECT 1 FROM event_store.events prior
        WHERE prior.stream_id = $1::text AND prior.version = $4::integer
          AND prior.transaction_id <= pg_current_xact_id())
      ORDER BY v.version
      RETURNING ${COLUMNS}`;

    let inserted: EventRow[];
    try {
      inserted = await tx.query<EventRow>(text, params);
    } catch (error) {
      if (isStreamVersionConflict(error)) throw new ConcurrencyError(streamId, expectedVersion);
      throw error;
    }
    if (inserted.length !== events.length) throw new ConcurrencyError(streamId, expectedVersion);
    return inserted.map(toRecordedEvent).sort((a, b) => a.version - b.version);
  }

  /**
   * Starts many one-event streams in a single INSERT (a batch of processed SDK events, one stream
   * each). A stream that already exists is skipped, not an error: recording the same fact twice
   * (a retried batch) stays one event. Answers the events written.
   */
  async startStreams(
    tx: Sql,
    entries: ReadonlyArray<{ streamId: string; streamType: string; event: DomainEvent; metadata?: EventMetadata }>,
  ): Promise<RecordedEvent[]> {
    if (entries.length === 0) return [];
    const params: unknown[] = [];
    const ids: string[] = [];
    const rows = entries.map(({ streamId, streamType, event, metadata }) => {
      assertStorable(event);
      const eventId = newUuid();
      ids.push(eventId);
      params.push(streamId, streamType, eventId, event.type, event.schemaVersion, JSON.stringify(event.data), JSON.stringify(metadata ?? {}));
      const at = params.length - 7;
      return `($${at + 1}::text, $${at + 2}::text, 1, $${at + 3}::uuid, $${at + 4}::text, $${at + 5}::integer, $${at + 6}::jsonb, $${at + 7}::jsonb)`;
    });
    // Only what the database decides comes back; the rest is what was written (no jsonb parsed back).
    const inserted = await tx.query<{ global_position: string; event_id: string; recorded_at: Date | string }>(
      `INSERT INTO event_store.events (stream_id, stream_type, version, event_id, event_type, schema_version, data, metadata)
       VALUES ${rows.join(', ')}
       ON CONFLICT ON CONSTRAINT ${STREAM_VERSION_CONSTRAINT} DO NOTHING
       RETURNING global_position, event_id, recorded_at`,
      params,
    );
    const byId = new Map(inserted.map((row) => [row.event_id, row]));
    return entries.flatMap(({ streamId, streamType, event, metadata }, index) => {
      const row = byId.get(ids[index]);
      if (!row) return [];
      return [
        toRecordedEvent({
          global_position: row.global_position,
          stream_id: streamId,
          stream_type: streamType,
          version: 1,
          event_id: ids[index],
          event_type: event.type,
          schema_version: event.schemaVersion,
          data: event.data as Record<string, unknown>,
          metadata: metadata ?? {},
          recorded_at: row.recorded_at,
        }),
      ];
    });
  }

  /** The events of one stream with a version greater than `fromVersion` (0: all), in version order. */
  async readStream(sql: Sql, streamId: string, fromVersion = 0): Promise<RecordedEvent[]> {
    const rows = await sql.query<EventRow>(`SELECT ${COLUMNS} FROM event_store.events WHERE stream_id = $1 AND version > $2 ORDER BY version`, [
      streamId,
      fromVersion,
    ]);
    return rows.map(toRecordedEvent);
  }

  /**
   * Up to `limit` events of the global stream after the event at `afterPosition` ('0': from the
   * start), for readers that keep a checkpoint.
   *
   * Only events of transactions older than every transaction still running are returned
   * (`transaction_id < pg_snapshot_xmin(pg_current_snapshot())`), and they come in
   * (transaction_id, global_position) order. Any transaction that commits later has an id at or
   * above that horizon, so it sorts after everything already returned and a checkpoint can never
   * move past it. (Ordering by global_position alone is not enough: a transaction that took its id
   * early but appended late holds higher positions than a younger one still open, and a reader would
   * move past the younger one's lower positions.) Within a transaction, and within a stream, events
   * come in position and version order; across transactions the order is by transaction id.
   *
   * Consequently the checkpoint names the last event handled; it is not necessarily the highest
   * position seen, and the next read continues after that event's place in this order.
   */
  async readAll(sql: Sql, afterPosition: GlobalPosition | bigint, limit: number, filter: ReadAllFilter = {}): Promise<RecordedEvent[]> {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
    const params: unknown[] = [toPosition(afterPosition), limit];
    const conditions: string[] = [];
    for (const [column, values] of [
      ['e.stream_type', filter.streamTypes],
      ['e.event_type', filter.eventTypes],
    ] as const) {
      if (values === undefined) continue;
      if (values.length === 0) return [];
      const placeholders = values.map((value) => `$${params.push(value)}::text`);
      conditions.push(`${column} IN (${placeholders.join(', ')})`);
    }
    const rows = await sql.query<EventRow>(
      `SELECT ${COLUMN_NAMES.map((name) => `e.${name}`).join(', ')}
       FROM event_store.events e
       WHERE (e.transaction_id, e.global_position) > (
               COALESCE((SELECT c.transaction_id FROM event_store.events c WHERE c.global_position = $1::bigint), '0'::xid8),
               $1::bigint)
         AND e.transaction_id < pg_snapshot_xmin(pg_current_snapshot())
         ${conditions.map((condition) => `AND ${condition}`).join(' ')}
       ORDER BY e.transaction_id, e.global_position
       LIMIT $2::integer`,
      params,
    );
    return rows.map(toRecordedEvent);
  }

  /** A subscriber's checkpoint: the position of the last event it handled, '0' when it has none. */
  async readCheckpoint(sql: Sql, subscriber: string): Promise<GlobalPosition> {
    const [row] = await sql.query<{ position: string }>('SELECT position FROM event_store.event_checkpoints WHERE subscriber = $1', [subscriber]);
    return row ? String(row.position) : '0';
  }

  /**
   * Takes a subscriber's checkpoint row for the rest of `tx` and answers its position. Another
   * transaction taking the same subscriber waits, then reads the position this one saved, so any
   * number of processes can run one subscriber without handling an event twice.
   */
  async lockCheckpoint(tx: Transaction, subscriber: string): Promise<GlobalPosition> {
    await tx.execute('INSERT INTO event_store.event_checkpoints (subscriber) VALUES ($1) ON CONFLICT (subscriber) DO NOTHING', [subscriber]);
    const [row] = await tx.query<{ position: string }>('SELECT position FROM event_store.event_checkpoints WHERE subscriber = $1 FOR UPDATE', [subscriber]);
    return String(row.position);
  }

  /** Records that `subscriber` handled everything up to the event at `position`; use the effect's transaction. */
  async saveCheckpoint(tx: Sql, subscriber: string, position: GlobalPosition | bigint): Promise<void> {
    await tx.execute(
      `INSERT INTO event_store.event_checkpoints (subscriber, position, updated_at) VALUES ($1, $2::bigint, now())
       ON CONFLICT (subscriber) DO UPDATE SET position = EXCLUDED.position, updated_at = EXCLUDED.updated_at`,
      [subscriber, toPosition(position)],
    );
  }

  private async currentVersion(sql: Sql, streamId: string): Promise<number> {
    const [row] = await sql.query<{ version: number }>('SELECT version FROM event_store.events WHERE stream_id = $1 ORDER BY version DESC LIMIT 1', [streamId]);
    return row ? Number(row.version) : 0;
  }
}

function assertStorable(event: DomainEvent): void {
  // The type is the stored contract (Rule 2); it must be explicit, never derived from a class name.
  if (typeof event.type !== 'string' || event.type.length === 0) {
    throw new TypeError('Every event needs an explicit, non-empty type string');
  }
  if (!Number.isInteger(event.schemaVersion) || event.schemaVersion < 1) {
    throw new TypeError(`Event ${event.type} needs a positive integer schemaVersion`);
  }
  if (event.data === undefined) throw new TypeError(`Event ${event.type} has no data`);
}

function toVersion(expected: number | 'no_stream'): number {
  if (expected === 'no_stream') return 0;
  if (!Number.isInteger(expected) || expected < 0) {
    throw new RangeError(`expectedVersion must be a non-negative integer, 'no_stream' or 'any', got ${expected}`);
  }
  return expected;
}

function toPosition(position: GlobalPosition | bigint): string {
  const text = String(position);
  if (!/^\d+$/.test(text)) throw new RangeError(`A global position is a non-negative integer, got ${text}`);
  return text;
}

/** TypeORM wraps pg's errors and copies their fields; look at both layers. */
function isStreamVersionConflict(error: unknown): boolean {
  const layers = [error, (error as { driverError?: unknown } | null)?.driverError];
  return layers.some((layer) => {
    if (typeof layer !== 'object' || layer === null) return false;
    const { code, constraint } = layer as { code?: unknown; constraint?: unknown };
    return code === UNIQUE_VIOLATION && constraint === STREAM_VERSION_CONSTRAINT;
  });
}

function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    globalPosition: String(row.global_position),
    streamId: row.stream_id,
    streamType: row.stream_type,
    version: Number(row.version),
    eventId: row.event_id,
    type: row.event_type,
    schemaVersion: Number(row.schema_version),
    data: row.data,
    metadata: row.metadata,
    recordedAt: (row.recorded_at instanceof Date ? row.recorded_at : new Date(row.recorded_at)).toISOString(),
  };
}
