import { Injectable } from '@nestjs/common';
import { Database, type Transaction } from '@faultline/platform';

export const DAY_MS = 86_400_000;
/** How long DDL waits for the table's lock before giving up until the next round: never queue ingestion behind it for long. */
const LOCK_TIMEOUT = '5s';
/** One key for all changes of the partitions, so two workers never do the same change at once. */
const PARTITIONS_LOCK = `hashtext('issues.error_events partitions')`;
const DAY_PARTITION = /^error_events_p(\d{4})(\d{2})(\d{2})$/;

/** The start (00:00 UTC) of the day holding `at`. */
export function dayOf(at: Date): Date {
  return new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);
}

/** The partition of the events received on the day starting at `day`: `error_events_pYYYYMMDD`. */
export function partitionName(day: Date): string {
  return `error_events_p${day.toISOString().slice(0, 10).replace(/-/g, '')}`;
}

function dayOfPartition(name: string): Date | undefined {
  const match = DAY_PARTITION.exec(name);
  return match ? new Date(`${match[1]}-${match[2]}-${match[3]}T00:00:00.000Z`) : undefined;
}

/**
 * The daily partitions of `issues.error_events` (by `received_at`, UTC): days created ahead of the
 * events, with what the default partition took for such a day moved in, and whole days detached
 * and dropped past retention. Each change runs in its own transaction under one advisory lock that
 * a second worker does not wait for, with a short lock timeout, so a reader holding the table
 * delays a change to the next round rather than ingestion behind it.
 */
@Injectable()
export class EventPartitionsRepository {
  constructor(private readonly database: Database) {}

  /** The days that have a partition, oldest first. */
  async days(): Promise<Date[]> {
    const rows = await this.database.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_catalog.pg_inherits i JOIN pg_catalog.pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = 'issues.error_events'::regclass`,
    );
    return rows.flatMap((row) => dayOfPartition(row.name) ?? []).sort((a, b) => a.getTime() - b.getTime());
  }

  /** The days, from `since` on, of events the default partition holds. */
  async strayDays(since: Date): Promise<Date[]> {
    const rows = await this.database.query<{ day: Date }>(
      `SELECT DISTINCT date_trunc('day', received_at, 'UTC') AS day FROM issues.error_events_default WHERE received_at >= $1 ORDER BY 1`,
      [since],
    );
    return rows.map((row) => new Date(row.day));
  }

  /**
   * Creates the partition of `day` (moving in the default partition's events of that day) unless it
   * exists or another worker is changing the partitions; answers whether it created it.
   */
  async createDay(day: Date): Promise<boolean> {
    const name = partitionName(day);
    const from = day.toISOString();
    const to = new Date(day.getTime() + DAY_MS).toISOString();
    return this.underLock(false, async (tx) => {
      const [{ exists }] = await tx.query<{ exists: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS exists`, [`issues.${name}`]);
      if (exists) return false;
      // Created apart and attached: ATTACH takes a weaker lock on the table than CREATE … PARTITION OF.
      await tx.execute(
        `CREATE TABLE issues.${name} (LIKE issues.error_events INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE INCLUDING COMPRESSION)`,
      );
      await tx.execute(
        `WITH moved AS (DELETE FROM issues.error_events_default WHERE received_at >= $1 AND received_at < $2 RETURNING *)
         INSERT INTO issues.${name} SELECT * FROM moved`,
        [from, to],
      );
      await tx.execute(`ALTER TABLE issues.error_events ATTACH PARTITION issues.${name} FOR VALUES FROM ('${from}') TO ('${to}')`);
      return true;
    });
  }

  /** Detaches and drops the partition of `day` with its events; answers how many it held (none when not done). */
  async dropDay(day: Date): Promise<number> {
    const name = partitionName(day);
    return this.underLock(0, async (tx) => {
      const [{ exists }] = await tx.query<{ exists: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS exists`, [`issues.${name}`]);
      if (!exists) return 0;
      const [{ rows }] = await tx.query<{ rows: number }>(`SELECT count(*)::int AS rows FROM issues.${name}`);
      await tx.execute(`ALTER TABLE issues.error_events DETACH PARTITION issues.${name}`);
      await tx.execute(`DROP TABLE issues.${name}`);
      return rows;
    });
  }

  /** Runs `change` holding the partitions' lock; answers `busy` at once when another worker holds it. */
  private async underLock<T>(busy: T, change: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.database.transaction(async (tx) => {
      await tx.execute(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
      const [{ locked }] = await tx.query<{ locked: boolean }>(`SELECT pg_try_advisory_xact_lock(${PARTITIONS_LOCK}) AS locked`);
      if (!locked) return busy;
      return change(tx);
    });
  }
}
