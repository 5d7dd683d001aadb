import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';
import { isNumericId } from '@faultline/kernel';
import type { MetricAggregate, MetricAlertRuleView, MetricRuleDefinition, MetricTrigger, ThresholdTypeValue } from '../domain';

export interface MetricRuleRow {
  id: string;
  organization_id: string;
  name: string;
  aggregate: MetricAggregate;
  query: string;
  time_window: number;
  threshold_type: ThresholdTypeValue;
  resolve_threshold: number | null;
  project_ids: string[];
  /** Slugs of project_ids, in the same order (joined on read). */
  project_slugs: string[];
  environment: string | null;
  owner: string | null;
  triggers: MetricTrigger[];
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

const SELECT = `SELECT r.id, r.organization_id, r.name, r.aggregate, r.query, r.time_window, r.threshold_type, r.resolve_threshold,
         r.project_ids, ARRAY(SELECT p.slug FROM unnest(r.project_ids) WITH ORDINALITY AS u (id, n) JOIN projects.project_directory p ON p.id = u.id ORDER BY u.n) AS project_slugs,
         r.environment, r.owner, r.triggers, r.created_by, r.created_at, r.updated_at
  FROM alerts.metric_alert_rules r`;

/** The organization's projects among these slugs, by slug. */
export async function organizationProjectsBySlug(sql: Sql, organizationId: string, slugs: readonly string[]): Promise<Map<string, string>> {
  const rows = await sql.query<{ id: string; slug: string }>(
    `SELECT id, slug FROM projects.project_directory WHERE organization_id = $1 AND slug = ANY($2::text[])`,
    [organizationId, slugs],
  );
  return new Map(rows.map((row) => [row.slug, String(row.id)]));
}

export function metricRuleView(row: MetricRuleRow): MetricAlertRuleView {
  return {
    id: String(row.id),
    organizationId: String(row.organization_id),
    name: row.name,
    aggregate: row.aggregate,
    query: row.query,
    timeWindow: row.time_window,
    thresholdType: Number(row.threshold_type) as ThresholdTypeValue,
    resolveThreshold: row.resolve_threshold === null ? null : Number(row.resolve_threshold),
    projects: row.project_slugs,
    environment: row.environment,
    owner: row.owner,
    triggers: row.triggers,
    dateCreated: new Date(row.created_at).toISOString(),
    dateModified: new Date(row.updated_at).toISOString(),
  };
}

@Injectable()
export class MetricRulesRepository {
  /** Ids for triggers and actions (Sentry's are numbers of their own). */
  async nextIds(sql: Sql, count: number): Promise<string[]> {
    if (count === 0) return [];
    const rows = await sql.query<{ id: string }>(`SELECT nextval('alerts.metric_alert_trigger_ids')::text AS id FROM generate_series(1, $1)`, [count]);
    return rows.map((row) => row.id);
  }

  async insert(
    sql: Sql,
    organizationId: string,
    projectIds: readonly string[],
    rule: MetricRuleDefinition,
    createdBy: string | null,
    at: Date,
  ): Promise<MetricRuleRow> {
    const [{ id }] = await sql.query<{ id: string }>(
      `INSERT INTO alerts.metric_alert_rules (organization_id, name, aggregate, query, time_window, threshold_type, resolve_threshold, project_ids, environment, owner, triggers, created_by, created_at, updated_at, next_evaluation_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::bigint[], $9, $10, $11, $12, $13, $13, $13) RETURNING id`,
      [
        organizationId,
        rule.name,
        rule.aggregate,
        rule.query,
        rule.timeWindow,
        rule.thresholdType,
        rule.resolveThreshold,
        projectIds,
        rule.environment,
        rule.owner,
        JSON.stringify(rule.triggers),
        createdBy,
        at,
      ],
    );
    return (await this.find(sql, organizationId, String(id))) as MetricRuleRow;
  }

  async update(
    sql: Sql,
    organizationId: string,
    ruleId: string,
    projectIds: readonly string[],
    rule: MetricRuleDefinition,
    at: Date,
  ): Promise<MetricRuleRow | undefined> {
    const rows = await sql.query(
      `UPDATE alerts.metric_alert_rules SET name = $3, aggregate = $4, query = $5, time_window = $6, threshold_type = $7, resolve_threshold = $8,
              project_ids = $9::bigint[], environment = $10, owner = $11, triggers = $12, updated_at = $13, next_evaluation_at = $13
       WHERE organization_id = $1 AND id = $2 RETURNING id`,
      [
        organizationId,
        ruleId,
        rule.name,
        rule.aggregate,
        rule.query,
        rule.timeWindow,
        rule.thresholdType,
        rule.resolveThreshold,
        projectIds,
        rule.environment,
        rule.owner,
        JSON.stringify(rule.triggers),
        at,
      ],
    );
    return rows.length ? this.find(sql, organizationId, ruleId) : undefined;
  }

  async delete(sql: Sql, organizationId: string, ruleId: string): Promise<string[] | undefined> {
    const [row] = await sql.query<{ project_ids: string[] }>(
      `DELETE FROM alerts.metric_alert_rules WHERE organization_id = $1 AND id = $2 RETURNING project_ids`,
      [organizationId, ruleId],
    );
    return row?.project_ids.map(String);
  }

  async find(sql: Sql, organizationId: string, ruleId: string, lock = false): Promise<MetricRuleRow | undefined> {
    if (!isNumericId(ruleId)) return undefined;
    const [row] = await sql.query<MetricRuleRow>(`${SELECT} WHERE r.organization_id = $1 AND r.id = $2${lock ? ' FOR UPDATE OF r' : ''}`, [
      organizationId,
      ruleId,
    ]);
    return row;
  }

  async byIds(sql: Sql, organizationId: string, ruleIds: readonly string[]): Promise<MetricRuleRow[]> {
    return sql.query<MetricRuleRow>(`${SELECT} WHERE r.organization_id = $1 AND r.id = ANY($2::bigint[])`, [organizationId, ruleIds]);
  }

  async list(sql: Sql, organizationId: string, offset: number, limit: number): Promise<MetricRuleRow[]> {
    return sql.query<MetricRuleRow>(`${SELECT} WHERE r.organization_id = $1 ORDER BY r.id DESC OFFSET $2 LIMIT $3`, [organizationId, offset, limit]);
  }

  /**
   * Claims rules due for evaluation; a rule another worker holds is skipped (SKIP LOCKED), so no
   * two processes evaluate one rule at once.
   */
  async claimDue(sql: Sql, now: Date, limit: number): Promise<MetricRuleRow[]> {
    return sql.query<MetricRuleRow>(
      `${SELECT} WHERE r.id IN (SELECT id FROM alerts.metric_alert_rules WHERE next_evaluation_at <= $1 ORDER BY next_evaluation_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)
       ORDER BY r.id`,
      [now, limit],
    );
  }

  async anyDue(sql: Sql, now: Date): Promise<boolean> {
    const [row] = await sql.query<{ due: boolean }>(`SELECT EXISTS (SELECT 1 FROM alerts.metric_alert_rules WHERE next_evaluation_at <= $1) AS due`, [now]);
    return row.due;
  }

  async evaluated(sql: Sql, results: ReadonlyArray<{ id: string; value: number }>, next: Date): Promise<void> {
    if (results.length === 0) return;
    await sql.execute(
      `UPDATE alerts.metric_alert_rules r SET next_evaluation_at = $3, last_value = v.value
       FROM unnest($1::bigint[], $2::float8[]) AS v (id, value) WHERE r.id = v.id`,
      [results.map((r) => r.id), results.map((r) => r.value), next],
    );
  }
}
