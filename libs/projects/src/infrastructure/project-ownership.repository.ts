import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';
import { type EventOwner, type EventOwnership, ProjectOwnership } from '../contracts/project-ownership';
import { type OwnershipSubject, OwnershipRulesMatcher } from '../domain/ownership-matcher';
import type { OwnershipOwner } from '../domain/ownership-rules';
import { DEFAULT_PROJECT_OWNERSHIP, ownerLabel, type ProjectOwnershipSettings, type ResolvedOwnershipOwner } from '../domain/project-ownership';

export interface ProjectOwnershipRow extends ProjectOwnershipSettings {
  readonly dateCreated: Date | null;
  readonly lastUpdated: Date | null;
}

interface StoredRow {
  raw: string | null;
  schema: ProjectOwnershipSettings['schema'];
  fallthrough: boolean;
  auto_assignment: boolean;
  date_created: Date;
  last_updated: Date;
}

const COLUMNS = 'raw, schema, fallthrough, auto_assignment, date_created, last_updated';

@Injectable()
export class ProjectOwnershipRepository extends ProjectOwnership {
  /** The project's settings; Sentry's defaults (and no dates) when they were never saved. */
  async find(sql: Sql, projectId: string, forUpdate = false): Promise<ProjectOwnershipRow> {
    const [row] = await sql.query<StoredRow>(
      `SELECT ${COLUMNS} FROM projects.project_ownership WHERE project_id = $1::bigint${forUpdate ? ' FOR UPDATE' : ''}`,
      [projectId],
    );
    if (!row) return { ...DEFAULT_PROJECT_OWNERSHIP, dateCreated: null, lastUpdated: null };
    return {
      raw: row.raw,
      schema: row.schema,
      fallthrough: row.fallthrough,
      autoAssignment: row.auto_assignment,
      dateCreated: row.date_created,
      lastUpdated: row.last_updated,
    };
  }

  async save(sql: Sql, projectId: string, settings: ProjectOwnershipSettings, at: string): Promise<void> {
    await sql.execute(
      `INSERT INTO projects.project_ownership (project_id, raw, schema, fallthrough, auto_assignment, date_created, last_updated)
       VALUES ($1::bigint, $2, $3::jsonb, $4, $5, $6, $6)
       ON CONFLICT (project_id) DO UPDATE SET raw = EXCLUDED.raw, schema = EXCLUDED.schema, fallthrough = EXCLUDED.fallthrough,
         auto_assignment = EXCLUDED.auto_assignment, last_updated = EXCLUDED.last_updated`,
      [projectId, settings.raw, settings.schema ? JSON.stringify(settings.schema) : null, settings.fallthrough, settings.autoAssignment, at],
    );
  }

  /**
   * The ids of the owners that are a team (by slug) or an active member (by e-mail address) of the
   * organization, by `ownerLabel`; two statements whatever the number of owners.
   */
  async ownerIds(sql: Sql, organizationId: string, owners: readonly OwnershipOwner[]): Promise<Map<string, string>> {
    const slugs = [...new Set(owners.filter((owner) => owner.type === 'team').map((owner) => owner.identifier))];
    const emails = [...new Set(owners.filter((owner) => owner.type === 'user').map((owner) => owner.identifier))];
    const ids = new Map<string, string>();
    if (slugs.length) {
      const teams = await sql.query<{ id: string; slug: string }>(
        `SELECT id::text AS id, slug FROM identity.team_directory WHERE organization_id = $1::bigint AND slug = ANY($2::text[])`,
        [organizationId, slugs],
      );
      for (const team of teams) ids.set(ownerLabel({ type: 'team', identifier: team.slug }), team.id);
    }
    if (emails.length) {
      const users = await sql.query<{ id: string; email: string }>(
        `SELECT user_id::text AS id, lower(email) AS email FROM identity.member_directory
         WHERE organization_id = $1::bigint AND is_active AND lower(email) = ANY($2::text[])`,
        [organizationId, emails],
      );
      for (const user of users) ids.set(user.email, user.id);
    }
    return ids;
  }

  async ownersOf(sql: Sql, projectId: string, subject: OwnershipSubject): Promise<EventOwnership> {
    const [row] = await sql.query<{ organization_id: string; schema: StoredRow['schema']; auto_assignment: boolean }>(
      `SELECT p.organization_id::text AS organization_id, o.schema, o.auto_assignment
       FROM projects.project_ownership o JOIN projects.projects p ON p.id = o.project_id WHERE o.project_id = $1::bigint`,
      [projectId],
    );
    if (!row) return { autoAssignment: DEFAULT_PROJECT_OWNERSHIP.autoAssignment, rules: [], owners: [] };
    const rules = row.schema ? new OwnershipRulesMatcher<ResolvedOwnershipOwner>(row.schema.rules).matching(subject) : [];
    const named = rules.flatMap((rule) => rule.owners);
    const current = await this.currentOwners(sql, row.organization_id, named);
    const owners: EventOwner[] = [];
    const seen = new Set<string>();
    for (const owner of named) {
      const key = `${owner.type}:${owner.id}`;
      const found = current.get(key);
      if (found && !seen.has(key)) owners.push(found);
      seen.add(key);
    }
    return {
      autoAssignment: row.auto_assignment,
      rules: rules.map((rule) => ({ matcher: rule.matcher, owners: rule.owners.map(({ type, identifier }) => ({ type, identifier })) })),
      owners,
    };
  }

  /** The named owners as they are now, by `type:id`: a deleted team or a removed or deactivated member is absent. */
  private async currentOwners(sql: Sql, organizationId: string, owners: readonly ResolvedOwnershipOwner[]): Promise<Map<string, EventOwner>> {
    const found = new Map<string, EventOwner>();
    const teamIds = [...new Set(owners.filter((owner) => owner.type === 'team').map((owner) => owner.id))];
    const userIds = [...new Set(owners.filter((owner) => owner.type === 'user').map((owner) => owner.id))];
    if (teamIds.length) {
      const teams = await sql.query<{ id: string; slug: string }>(
        `SELECT id::text AS id, slug FROM identity.team_directory WHERE organization_id = $1::bigint AND id = ANY($2::bigint[])`,
        [organizationId, teamIds],
      );
      for (const team of teams) found.set(`team:${team.id}`, { type: 'team', id: team.id, name: team.slug });
    }
    if (userIds.length) {
      const users = await sql.query<{ id: string; name: string | null; email: string }>(
        `SELECT user_id::text AS id, name, email FROM identity.member_directory
         WHERE organization_id = $1::bigint AND is_active AND user_id = ANY($2::bigint[])`,
        [organizationId, userIds],
      );
      for (const user of users) found.set(`user:${user.id}`, { type: 'user', id: user.id, name: user.name || user.email, email: user.email });
    }
    return found;
  }
}
