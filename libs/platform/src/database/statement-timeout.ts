import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The statement time budget of the work in progress: API requests run inside one (the setting
 * API_STATEMENT_TIMEOUT_MS), so one tenant's heavy search cannot hold a pooled connection for
 * long; system work (migrations, workers, vacuum, retention) runs outside any, under the server's
 * own default.
 */
const budget = new AsyncLocalStorage<number>();

/** Runs `work` (and everything it starts) with each database statement cut after `milliseconds`. */
export function withStatementTimeout<T>(milliseconds: number, work: () => T): T {
  return budget.run(milliseconds, work);
}

/** The budget of the work in progress; undefined outside any (the server's default applies). */
export function currentStatementTimeout(): number | undefined {
  return budget.getStore();
}

/** PostgreSQL's code for a statement cancelled by `statement_timeout` (or by a cancel request). */
export const QUERY_CANCELED = '57014';
