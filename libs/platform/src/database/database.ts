import { ConcurrencyError } from '@faultline/kernel';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { currentStatementTimeout } from './statement-timeout';

export type Row = Record<string, any>;

interface DriverResult {
  rows: unknown[];
  rowCount: number | null;
}

interface DriverClient {
  query(text: string, params?: unknown[]): Promise<DriverResult | DriverResult[]>;
}

interface DriverPool {
  connect(): Promise<DriverClient & { release(error?: Error | boolean): void }>;
}

/**
 * Each pooled connection's `statement_timeout` as this process last set it (absent: the server's
 * default). A connection serves API requests and system work in turn; it is set again only when
 * the work it serves asks for another budget.
 */
const connectionTimeouts = new WeakMap<DriverClient, number | undefined>();

async function applyStatementTimeout(client: DriverClient): Promise<void> {
  const wanted = currentStatementTimeout();
  if (connectionTimeouts.get(client) === wanted) return;
  if (wanted === undefined) await client.query('RESET statement_timeout');
  else await client.query(`SELECT set_config('statement_timeout', $1, false)`, [String(wanted)]);
  connectionTimeouts.set(client, wanted);
}

/** A script (several statements, no parameters, one implicit transaction) answers with its last statement. */
const lastOf = (result: DriverResult | DriverResult[]): DriverResult => (Array.isArray(result) ? result[result.length - 1] : result);

/** Plain SQL access; both the database and an open transaction offer it. */
export interface Sql {
  query<T = Row>(text: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a statement and answers the number of rows it affected. */
  execute(text: string, params?: readonly unknown[]): Promise<number>;
}

export interface Transaction extends Sql {
  readonly manager: EntityManager;
  /** Runs after a successful commit: the fast path that wakes workers and in-memory subscribers. */
  afterCommit(callback: () => void | Promise<void>): void;
  /**
   * Runs `work` in a savepoint: if it throws, what it did is rolled back, the transaction stays
   * usable, and the error is thrown again.
   */
  inSavepoint<T>(work: () => Promise<T>): Promise<T>;
}

export interface TransactionOptions {
  /**
   * How many times to run the whole unit again after a ConcurrencyError (default 2): units that
   * record on a shared stream with expected version 'any' meet one when another writer appends
   * first, and a fresh attempt then succeeds.
   */
  readonly retries?: number;
}

const DEFAULT_RETRIES = 2;

async function run(runner: QueryRunner, text: string, params?: readonly unknown[]) {
  return runner.query(text, params as unknown[] | undefined, true);
}

class RunnerTransaction implements Transaction {
  readonly callbacks: Array<() => void | Promise<void>> = [];

  constructor(private readonly runner: QueryRunner) {}

  get manager(): EntityManager {
    return this.runner.manager;
  }

  async query<T = Row>(text: string, params?: readonly unknown[]): Promise<T[]> {
    return (await run(this.runner, text, params)).records as T[];
  }

  async execute(text: string, params?: readonly unknown[]): Promise<number> {
    return (await run(this.runner, text, params)).affected ?? 0;
  }

  afterCommit(callback: () => void | Promise<void>): void {
    this.callbacks.push(callback);
  }

  async inSavepoint<T>(work: () => Promise<T>): Promise<T> {
    await this.execute('SAVEPOINT work');
    let result: T;
    try {
      result = await work();
    } catch (error) {
      await this.execute('ROLLBACK TO SAVEPOINT work');
      await this.execute('RELEASE SAVEPOINT work');
      throw error;
    }
    await this.execute('RELEASE SAVEPOINT work');
    return result;
  }
}

/**
 * Whether a statement failed because its row went to a default partition while that day's
 * partition was being attached (PostgreSQL routes a row before it waits for the lock, and then
 * finds the default partition's bounds changed): the same statement again goes to the new day.
 */
export function isPartitionAttachRace(error: unknown): boolean {
  const { code, table } = (error ?? {}) as { code?: unknown; table?: unknown };
  return code === '23514' && typeof table === 'string' && table.endsWith('_default');
}

export class Database implements Sql {
  constructor(
    readonly dataSource: DataSource,
    private readonly onCallbackError: (error: unknown) => void = () => undefined,
  ) {}

  async query<T = Row>(text: string, params?: readonly unknown[]): Promise<T[]> {
    return (await this.single(text, params)).rows as T[];
  }

  async execute(text: string, params?: readonly unknown[]): Promise<number> {
    return (await this.single(text, params)).rowCount ?? 0;
  }

  /** Single statements outside a transaction go straight to `pg.Pool`: the hot read path skips TypeORM's per-query runner. */
  private async single(text: string, params?: readonly unknown[]) {
    const pool = (this.dataSource.driver as unknown as { master?: DriverPool }).master;
    if (!pool) throw new Error('The database is not connected');
    const client = await pool.connect();
    try {
      await applyStatementTimeout(client);
      const result = lastOf(await client.query(text, params as unknown[] | undefined));
      client.release();
      return result;
    } catch (error) {
      // As pg.Pool's own query does: a connection that failed a statement is not reused.
      client.release(error as Error);
      throw error;
    }
  }

  async transaction<T>(work: (tx: Transaction) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.transactionOnce(work);
      } catch (error) {
        if (!(error instanceof ConcurrencyError || isPartitionAttachRace(error)) || attempt >= (options.retries ?? DEFAULT_RETRIES)) throw error;
      }
    }
  }

  private async transactionOnce<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const tx = await this.withRunner(async (runner) => {
      await runner.startTransaction();
      const transaction = new RunnerTransaction(runner);
      try {
        const result = await work(transaction);
        await runner.commitTransaction();
        return { result, callbacks: transaction.callbacks };
      } catch (error) {
        if (runner.isTransactionActive) await runner.rollbackTransaction();
        throw error;
      }
    });
    for (const callback of tx.callbacks) {
      try {
        await callback();
      } catch (error) {
        this.onCallbackError(error);
      }
    }
    return tx.result;
  }

  private async withRunner<T>(work: (runner: QueryRunner) => Promise<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    try {
      await applyStatementTimeout((await runner.connect()) as DriverClient);
      return await work(runner);
    } finally {
      await runner.release();
    }
  }
}
