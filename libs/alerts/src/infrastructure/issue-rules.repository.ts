import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';
import { isNumericId } from '@faultline/kernel';
import type { IssueRule, IssueRuleDefinition } from '../domain';

export interface IssueRuleRow {
  id: string;
  project_id: string;
  name: string;
  environment: string | null;
  action_match: IssueRule['actionMatch'];
  filter_match: IssueRule['filterMatch'];
  frequency_minutes: number;
  conditions: IssueRule['conditions'];
  filters: IssueRule['filters'];
  actions: IssueRule['actions'];
  owner: string | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS =
  'id, project_id, name, environment, action_match, filter_match, frequency_minutes, conditions, filters, actions, owner, created_by, created_at, updated_at';

export function issueRuleOf(row: IssueRuleRow): IssueRule {
  return {
    id: String(row.id),
    projectId: String(row.project_id),
    name: row.name,
    environment: row.environment,
    actionMatch: row.action_match,
    filterMatch: row.filter_match,
    frequency: row.frequency_minutes,
    conditions: row.conditions,
    filters: row.filters,
    actions: row.actions,
    owner: row.owner,
  };
}

@Injectable()
export class IssueRulesRepository {
  async insert(sql: Sql, projectId: string, rule: IssueRuleDefinition, createdBy: string | null, at: Date): Promise<IssueRuleRow> {
    const [row] = await sql.query<IssueRuleRow>(
      `INSERT INTO alerts.issue_alert_rules (project_id, name, environment, action_match, filter_match, frequency_minutes, conditions, filters, actions, owner, created_by, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12) RETURNING ${COLUMNS}`,
      [
        projectId,
        rule.name,
        rule.environment,
        rule.actionMatch,
        rule.filterMatch,
        rule.frequency,
        JSON.stringify(rule.conditions),
        JSON.stringify(rule.filters),
        JSON.stringify(rule.actions),
        rule.owner,
        createdBy,
        at,
      ],
    );
    return row;
  }

  async update(sql: Sql, projectId: string, ruleId: string, rule: IssueRuleDefinition, at: Date): Promise<IssueRuleRow | undefined> {
    const [row] = await sql.query<IssueRuleRow>(
      `UPDATE alerts.issue_alert_rules SET name = $3, environment = $4, action_match = $5, filter_match = $6, frequency_minutes = $7,
              conditions = $8, filters = $9, actions = $10, owner = $11, updated_at = $12
       WHERE project_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [
        projectId,
        ruleId,
        rule.name,
        rule.environment,
        rule.actionMatch,
        rule.filterMatch,
        rule.frequency,
        JSON.stringify(rule.conditions),
        JSON.stringify(rule.filters),
        JSON.stringify(rule.actions),
        rule.owner,
        at,
      ],
    );
    return row;
  }

  async delete(sql: Sql, projectId: string, ruleId: string): Promise<boolean> {
    const rows = await sql.query(`DELETE FROM alerts.issue_alert_rules WHERE project_id = $1 AND id = $2 RETURNING id`, [projectId, ruleId]);
    return rows.length > 0;
  }

  async find(sql: Sql, projectId: string, ruleId: string, lock = false): Promise<IssueRuleRow | undefined> {
    if (!isNumericId(ruleId)) return undefined;
    const [row] = await sql.query<IssueRuleRow>(
      `SELECT ${COLUMNS} FROM alerts.issue_alert_rules WHERE project_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
      [projectId, ruleId],
    );
    return row;
  }

  /** Newest first, as Sentry lists them. */
  async list(sql: Sql, projectId: string, offset: number, limit: number): Promise<IssueRuleRow[]> {
    return sql.query<IssueRuleRow>(`SELECT ${COLUMNS} FROM alerts.issue_alert_rules WHERE project_id = $1 ORDER BY id DESC OFFSET $2 LIMIT $3`, [
      projectId,
      offset,
      limit,
    ]);
  }

  async byIds(sql: Sql, projectIds: readonly string[], ruleIds: readonly string[]): Promise<IssueRuleRow[]> {
    return sql.query<IssueRuleRow>(`SELECT ${COLUMNS} FROM alerts.issue_alert_rules WHERE project_id = ANY($1::bigint[]) AND id = ANY($2::bigint[])`, [
      projectIds,
      ruleIds,
    ]);
  }

  async forProjects(sql: Sql, projectIds: readonly string[]): Promise<IssueRuleRow[]> {
    return sql.query<IssueRuleRow>(`SELECT ${COLUMNS} FROM alerts.issue_alert_rules WHERE project_id = ANY($1::bigint[]) ORDER BY id`, [projectIds]);
  }
}
