import { inBatches } from '../lifecycle/retention';
import { Database, type Sql, type Transaction } from './database';

export const DAY_MS = 86_400_000;
/** Days a maintainer keeps with a partition ahead of today: a week of missed rounds still finds each day ready. */
export const DAYS_AHEAD = 7;
/** How long DDL waits for the table's lock before giving up until the next round: never queue ingestion behind it for long. */
const LOCK_TIMEOUT = '5s';
const QUALIFIED = /^([a-z_]+)\.([a-z_][a-z0-9_]*)$/;
const DAY_SUFFIX = /^(\d{4})(\d{2})(\d{2})$/;
/** Default-partition rows deleted per statement: a short lock on a table writers may use. */
const STRAY_BATCH = 1000;

/** The start (00:00 UTC) of the day holding `at`. */
export function dayOf(at: Date): Date {
  return new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);
}

/** A table of days, and how long its rows are kept. */
export interface KeptDays {
  readonly partitions: DailyPartitions;
  readonly keptMs: number;
}

function dayPartitionName(table: string, day: Date): string {
  return `${table}_p${day.toISOString().slice(0, 10).replace(/-/g, '')}`;
}

/**
 * Moves what the default partition of every table partitioned by day holds into partitions of
 * those days, created for them; answers the rows moved. Only while nothing else writes, as a
 * restore does: it loads whole tables into a database that has only the days around its
 * migrations. (A running service leaves such rows where they are: see DailyPartitions.createDay.)
 * The default partition is detached meanwhile, so that attaching a day does not scan it each time.
 */
export async function moveDefaultRowsIntoDays(sql: Sql): Promise<number> {
  const tables = await sql.query<{ schema: string; name: string; column: string; columns: string[] }>(
    `SELECT n.nspname AS schema, c.relname AS name, a.attname AS column,
            ARRAY(SELECT s.attname FROM pg_catalog.pg_attribute s
                  WHERE s.attrelid = c.oid AND s.attnum > 0 AND NOT s.attisdropped AND s.attgenerated = '' ORDER BY s.attnum)::text[] AS columns
     FROM pg_catalog.pg_partitioned_table p
     JOIN pg_catalog.pg_class c ON c.oid = p.partrelid
     JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
     JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum = p.partattrs[0]
     WHERE p.partstrat = 'r' AND p.partnatts = 1 AND p.partdefid <> 0
       AND (SELECT relname FROM pg_catalog.pg_class WHERE oid = p.partdefid) = c.relname || '_default'
     ORDER BY 1, 2`,
  );
  const quoted = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;
  let moved = 0;
  for (const { schema, name, column, columns } of tables) {
    const table = `${quoted(schema)}.${quoted(name)}`;
    const defaultPartition = `${quoted(schema)}.${quoted(`${name}_default`)}`;
    const days = await sql.query<{ day: string }>(
      `SELECT DISTINCT to_char(${quoted(column)} AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day FROM ${defaultPartition}`,
    );
    if (days.length === 0) continue;
    await sql.execute(`ALTER TABLE ${table} DETACH PARTITION ${defaultPartition}`);
    for (const { day } of days) {
      const from = new Date(`${day}T00:00:00.000Z`);
      const partition = `${quoted(schema)}.${quoted(dayPartitionName(name, from))}`;
      await sql.execute(`CREATE TABLE ${partition} (LIKE ${table} INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE INCLUDING COMPRESSION)`);
      const to = new Date(from.getTime() + DAY_MS).toISOString();
      await sql.execute(`ALTER TABLE ${table} ATTACH PARTITION ${partition} FOR VALUES FROM ('${from.toISOString()}') TO ('${to}')`);
    }
    // Every stored column as it was: identities included, generated ones computed again.
    const stored = columns.map(quoted).join(', ');
    moved += await sql.execute(`INSERT INTO ${table} (${stored}) OVERRIDING SYSTEM VALUE SELECT ${stored} FROM ${defaultPartition}`);
    await sql.execute(`TRUNCATE ${defaultPartition}`);
    await sql.execute(`ALTER TABLE ${table} ATTACH PARTITION ${defaultPartition} DEFAULT`);
  }
  return moved;
}

/**
 * The daily partitions of a table range-partitioned by one timestamp column (UTC days), named
 * `<table>_pYYYYMMDD` beside its `<table>_default`: days created ahead of their rows, and whole
 * days detached and dropped past retention, which leaves no dead rows behind. Each change runs in
 * its own transaction under one advisory lock per table that a second worker does not wait for,
 * with a short lock timeout, so a reader holding the table delays a change to the next round
 * rather than writers behind it.
 */
export class DailyPartitions {
  private readonly schema: string;
  private readonly name: string;

  /** `table`: schema-qualified, partitioned `BY RANGE (column)`, with a `<table>_default` partition. */
  constructor(
    private readonly database: Database,
    readonly table: string,
    private readonly column: string,
  ) {
    const match = QUALIFIED.exec(table);
    if (!match) throw new Error(`not a schema-qualified table name: ${table}`);
    [, this.schema, this.name] = match;
  }

  /** The partition of the rows of the day starting at `day`: `<table>_pYYYYMMDD`. */
  partitionName(day: Date): string {
    return dayPartitionName(this.name, day);
  }

  /** The days that have a partition, oldest first. */
  async days(): Promise<Date[]> {
    const rows = await this.database.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_catalog.pg_inherits i JOIN pg_catalog.pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass`,
      [this.table],
    );
    return rows.flatMap((row) => this.dayOfPartition(row.name) ?? []).sort((a, b) => a.getTime() - b.getTime());
  }

  /** Creates today's partition and the next `ahead` days'; answers the days this call created. */
  async ensure(now: Date, ahead: number): Promise<Date[]> {
    const today = dayOf(now);
    const existing = new Set((await this.days()).map((day) => day.getTime()));
    const created: Date[] = [];
    for (let n = 0; n <= ahead; n++) {
      const day = new Date(today.getTime() + n * DAY_MS);
      if (!existing.has(day.getTime()) && (await this.createDay(day))) created.push(day);
    }
    return created;
  }

  /**
   * Creates the partition of `day` unless it exists, another worker is changing the partitions, or
   * the default partition holds rows of that day; answers whether it created it. Such rows are not
   * moved while the service runs: a writer updating one would find it gone and lose its change.
   * They stay in the default partition until retention deletes them.
   */
  async createDay(day: Date): Promise<boolean> {
    const name = this.partitionName(day);
    const from = day.toISOString();
    const to = new Date(day.getTime() + DAY_MS).toISOString();
    return this.underLock(false, async (tx) => {
      if (await this.exists(tx, name)) return false;
      // ATTACH locks the default partition whole to scan it: taken first, so that no row of the day reaches it after the look.
      await tx.execute(`LOCK TABLE ${this.table}_default IN ACCESS EXCLUSIVE MODE`);
      const [{ held }] = await tx.query<{ held: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM ${this.table}_default WHERE ${this.column} >= $1 AND ${this.column} < $2) AS held`,
        [from, to],
      );
      if (held) return false;
      // Created apart and attached: ATTACH takes a weaker lock on the table than CREATE … PARTITION OF.
      await tx.execute(
        `CREATE TABLE ${this.schema}.${name} (LIKE ${this.table} INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE INCLUDING COMPRESSION)`,
      );
      await tx.execute(`ALTER TABLE ${this.table} ATTACH PARTITION ${this.schema}.${name} FOR VALUES FROM ('${from}') TO ('${to}')`);
      return true;
    });
  }

  /** Detaches and drops the partition of `day` with its rows; answers how many it held (none when not done). */
  async dropDay(day: Date): Promise<number> {
    const name = this.partitionName(day);
    return this.underLock(0, async (tx) => {
      if (!(await this.exists(tx, name))) return 0;
      const [{ rows }] = await tx.query<{ rows: number }>(`SELECT count(*)::int AS rows FROM ${this.schema}.${name}`);
      await tx.execute(`ALTER TABLE ${this.table} DETACH PARTITION ${this.schema}.${name}`);
      await tx.execute(`DROP TABLE ${this.schema}.${name}`);
      return rows;
    });
  }

  /** Drops every day that ends at or before `cutoff`; answers the rows they held. */
  async dropBefore(cutoff: Date): Promise<number> {
    let rows = 0;
    for (const day of await this.days()) {
      if (day.getTime() + DAY_MS <= cutoff.getTime()) rows += await this.dropDay(day);
    }
    return rows;
  }

  /**
   * Everything past `cutoff`: the days that end by it, dropped whole, and what the default
   * partition holds of them, deleted STRAY_BATCH rows at a time; answers the rows gone.
   */
  async prune(cutoff: Date): Promise<number> {
    const dropped = await this.dropBefore(cutoff);
    const strays = await inBatches(STRAY_BATCH, (limit) =>
      this.database.execute(
        `DELETE FROM ${this.table}_default WHERE ctid = ANY(ARRAY(SELECT ctid FROM ${this.table}_default WHERE ${this.column} < $1 LIMIT $2))`,
        [dayOf(cutoff), limit],
      ),
    );
    return dropped + strays;
  }

  private dayOfPartition(name: string): Date | undefined {
    const prefix = `${this.name}_p`;
    const match = name.startsWith(prefix) ? DAY_SUFFIX.exec(name.slice(prefix.length)) : null;
    return match ? new Date(`${match[1]}-${match[2]}-${match[3]}T00:00:00.000Z`) : undefined;
  }

  private async exists(tx: Transaction, partition: string): Promise<boolean> {
    const [{ exists }] = await tx.query<{ exists: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS exists`, [`${this.schema}.${partition}`]);
    return exists;
  }

  /** Runs `change` holding the table's partitions lock; answers `busy` at once when another worker holds it. */
  private async underLock<T>(busy: T, change: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.database.transaction(async (tx) => {
      await tx.execute(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
      const [{ locked }] = await tx.query<{ locked: boolean }>(`SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked`, [`${this.table} partitions`]);
      if (!locked) return busy;
      return change(tx);
    });
  }
}
