import type { Sql } from '@faultline/platform';

/** A project's sessions, in one environment or in all of them (null). */
export interface ProjectSessionsQuery {
  readonly projectId: string;
  readonly environment: string | null;
}

/**
 * How many sessions projects started recently, as alert rules weigh an issue's events against
 * them (Sentry's percent-of-sessions condition), read in the caller's transaction.
 */
export abstract class ProjectSessionCounts {
  /** Sessions started in the hour up to `now`, keyed by `sessionsKey`; a query without sessions answers 0. */
  abstract startedInLastHour(sql: Sql, queries: readonly ProjectSessionsQuery[], now: Date): Promise<Map<string, number>>;
}

export const sessionsKey = (query: ProjectSessionsQuery): string => `${query.projectId}|${query.environment ?? ''}`;
