import type { Sql } from '@faultline/platform';

/**
 * Each project's latest release, as issue search takes it for `release:latest` (newest by first
 * sight, or the highest version when the newest are semantic versions), so alert rules' latest
 * release filter agrees with search.
 */
export abstract class LatestReleases {
  /**
   * By project id; a project whose events named no release is absent. `seenNow` are the releases
   * of events being processed in this transaction, oldest first, which are the newest releases
   * when not stored yet (a release exists from its first event on, as in Sentry).
   */
  abstract ofProjects(sql: Sql, projects: ReadonlyArray<{ projectId: string; seenNow: readonly string[] }>): Promise<Map<string, string>>;
}
