import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { APP_CONFIG, type AppConfig, type Sql } from '@faultline/platform';
import { type IssueRule, needsOf, type RuleNeeds } from '../domain';
import { issueRuleOf, IssueRulesRepository } from './issue-rules.repository';

/** What evaluating a project's events needs: its issue rules and which counts to keep. */
export interface ProjectAlerting {
  readonly rules: readonly IssueRule[];
  readonly needs: RuleNeeds;
}

const NOTHING: ProjectAlerting = Object.freeze({
  rules: [],
  needs: {
    eventCounts: false,
    userCounts: false,
    issueAge: false,
    issueState: false,
    sessions: false,
    latestRelease: false,
    eventWindows: [],
    userWindows: [],
  },
});

const CACHED_PROJECTS = 10_000;

/**
 * Per-project rules for the ingestion path, read at most once per ALERT_RULE_CACHE_SECONDS per
 * process (two statements for all the projects of a batch that are not cached); a change made in
 * this process clears its project at once, other processes see it when their entry expires.
 */
@Injectable()
export class AlertRuleCache {
  private readonly ttlMs: number;
  private readonly entries: LRUCache<string, ProjectAlerting>;

  constructor(
    private readonly rules: IssueRulesRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.ttlMs = config.alerts.ruleCacheSeconds * 1000;
    this.entries = new LRUCache({ max: CACHED_PROJECTS, ttl: this.ttlMs });
  }

  async forProjects(sql: Sql, projectIds: readonly string[]): Promise<Map<string, ProjectAlerting>> {
    const found = new Map<string, ProjectAlerting>();
    const missing: string[] = [];
    for (const projectId of projectIds) {
      const value = this.entries.get(projectId);
      if (value) found.set(projectId, value);
      else missing.push(projectId);
    }
    if (missing.length === 0) return found;
    const rows = await this.rules.forProjects(sql, missing);
    const metric = await sql.query<{ project_id: string; aggregate: string }>(
      `SELECT DISTINCT p.project_id, r.aggregate FROM alerts.metric_alert_rules r CROSS JOIN LATERAL unnest(r.project_ids) AS p (project_id)
       WHERE r.project_ids && $1::bigint[] AND p.project_id = ANY($1::bigint[])`,
      [missing],
    );
    for (const projectId of missing) {
      const rules = rows.filter((row) => String(row.project_id) === projectId).map(issueRuleOf);
      const aggregates = new Set(metric.filter((row) => String(row.project_id) === projectId).map((row) => row.aggregate));
      const needs = needsOf(rules);
      const value: ProjectAlerting =
        rules.length === 0 && aggregates.size === 0
          ? NOTHING
          : {
              rules,
              needs: {
                ...needs,
                eventCounts: needs.eventCounts || aggregates.has('count()'),
                userCounts: needs.userCounts || aggregates.has('count_unique(user)'),
              },
            };
      // A ttl of 0 means "keep nothing" here, "forever" to lru-cache.
      if (this.ttlMs > 0) this.entries.set(projectId, value);
      found.set(projectId, value);
    }
    return found;
  }

  /** After a change in this process: the next batch reads the projects again. */
  forget(projectIds: readonly string[]): void {
    for (const projectId of projectIds) this.entries.delete(projectId);
  }
}
