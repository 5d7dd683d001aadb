import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';

/** A rule of either kind, as Sentry's combined list types them: `rule` (issue) or `alert_rule` (metric). */
export interface CombinedRuleKey {
  readonly type: 'rule' | 'alert_rule';
  readonly id: string;
}

/** One page of an organization's issue and metric alert rules together, newest first. */
@Injectable()
export class CombinedRulesRepository {
  async page(sql: Sql, organizationId: string, projectIds: readonly string[], offset: number, limit: number): Promise<CombinedRuleKey[]> {
    return sql.query<CombinedRuleKey>(
      `SELECT type, id::text AS id FROM (
         SELECT 'rule' AS type, id, created_at FROM alerts.issue_alert_rules WHERE project_id = ANY($1::bigint[])
         UNION ALL
         SELECT 'alert_rule' AS type, id, created_at FROM alerts.metric_alert_rules WHERE organization_id = $2::bigint
       ) rules ORDER BY created_at DESC, type, id DESC OFFSET $3 LIMIT $4`,
      [projectIds, organizationId, offset, limit],
    );
  }
}
