import { Injectable } from '@nestjs/common';
import { Actors } from '@faultline/identity';
import { DomainError, isNumericId } from '@faultline/kernel';
import { Database, type Principal } from '@faultline/platform';
import type { IssueActor, IssueAssignee } from '../domain';

interface PersonRow {
  id: string;
  name: string;
  email: string;
}

/**
 * Who acts on issues and who they can be assigned to, read from the organization's members,
 * users and teams.
 */
@Injectable()
export class IssuePeople {
  constructor(
    private readonly database: Database,
    private readonly actors: Actors,
  ) {}

  /** A user token acts as its user (as identity names users); an organization token as an application. */
  async actorFor(principal: Principal): Promise<IssueActor> {
    if (principal.kind === 'user' && principal.userId) return this.actors.user(this.database, principal.userId);
    return { type: 'application', id: principal.tokenId, name: 'API token' };
  }

  /**
   * Sentry's `assignedTo`: `user:<id>`, `team:<id>`, a bare user id or a member's e-mail address.
   * Only members and teams of the organization can be assignees; anything else is 400.
   */
  async resolveAssignee(organizationId: string, input: string): Promise<IssueAssignee> {
    const value = input.trim();
    const prefixed = /^(user|team):(.+)$/i.exec(value);
    const kind = prefixed?.[1].toLowerCase();
    const id = prefixed ? prefixed[2] : value;
    let assignee: IssueAssignee | undefined;
    if (kind === 'team') {
      if (isNumericId(id)) {
        const [team] = await this.database.query<{ id: string; slug: string }>(
          `SELECT id::text AS id, slug FROM identity.team_directory WHERE organization_id = $1::bigint AND id = $2::bigint`,
          [organizationId, id],
        );
        if (team) assignee = { type: 'team', id: team.id, name: team.slug };
      }
    } else if (isNumericId(id)) {
      assignee = await this.member(organizationId, 'm.user_id = $2::bigint', id);
    } else if (!kind && id.includes('@')) {
      assignee = await this.member(organizationId, 'lower(m.email) = lower($2)', id);
    }
    if (!assignee) throw DomainError.invalid('Unknown assignee');
    return assignee;
  }

  /** Only active members can be assigned: a deactivated one (SCIM `active: false`) has no access. */
  private async member(organizationId: string, condition: string, value: string): Promise<IssueAssignee | undefined> {
    const [user] = await this.database.query<PersonRow>(
      `SELECT m.user_id::text AS id, m.name, m.email FROM identity.member_directory m
       WHERE m.organization_id = $1::bigint AND m.is_active AND ${condition}`,
      [organizationId, value],
    );
    return user ? { type: 'user', id: user.id, name: user.name || user.email, email: user.email } : undefined;
  }
}
