import { EventEmitter } from 'node:events';
import type { PGlite, Results } from '@electric-sql/pglite';

type ReleaseCallback = (error?: unknown) => void;
type ConnectCallback = (error: unknown, connection: PGliteConnection | null, release: ReleaseCallback) => void;

interface PgShapedResult {
  rows: unknown[];
  rowCount: number;
  command: string;
  fields: Results['fields'];
}

/** `pg`'s result shape, so TypeORM reports affected rows and commands the same on both databases. */
function toPgResult(sql: string, result: Results<unknown> | undefined): PgShapedResult {
  const command = /^\s*(?:--[^\n]*\n\s*)*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? '';
  const rows = result?.rows ?? [];
  return { rows, rowCount: result?.affectedRows ?? rows.length, command, fields: result?.fields ?? [] };
}

/** One leased session of the embedded database, shaped like a `pg` client for TypeORM. */
class PGliteConnection extends EventEmitter {
  constructor(private readonly db: PGlite) {
    super();
  }

  async query(sql: string, params?: unknown[] | ((error: unknown, result: unknown) => void)): Promise<PgShapedResult> {
    const values = Array.isArray(params) ? params : undefined;
    const result =
      values && values.length > 0
        ? await this.db.query(sql, values)
        : (await this.db.exec(sql)).at(-1);
    return toPgResult(sql, result);
  }
}

/**
 * A `pg.Pool` stand-in over one PGlite instance. PGlite is a single session, so each TypeORM query
 * runner gets it exclusively from connect until release: transactions never interleave.
 */
export class PGlitePool extends EventEmitter {
  private readonly connection: PGliteConnection;
  private readonly waiters: Array<() => void> = [];
  private leased = false;

  constructor(
    private readonly db: PGlite,
    private readonly onClosed: () => void = () => undefined,
  ) {
    super();
    this.connection = new PGliteConnection(db);
  }

  get waitingCount(): number {
    return this.waiters.length;
  }

  get totalCount(): number {
    return 1;
  }

  get idleCount(): number {
    return this.leased ? 0 : 1;
  }

  connect(callback: ConnectCallback): void {
    this.acquire().then(
      () => {
        let released = false;
        callback(null, this.connection, () => {
          if (released) return;
          released = true;
          this.release();
        });
      },
      (error) => callback(error, null, () => undefined),
    );
  }

  async query(sql: string, params?: unknown[]): Promise<PgShapedResult> {
    await this.acquire();
    try {
      return await this.connection.query(sql, params);
    } finally {
      this.release();
    }
  }

  end(callback?: (error?: unknown) => void): Promise<void> {
    const closing = this.db.close().finally(this.onClosed);
    closing.then(() => callback?.(), (error) => callback?.(error));
    return closing;
  }

  private acquire(): Promise<void> {
    if (!this.leased) {
      this.leased = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.leased = false;
  }
}
