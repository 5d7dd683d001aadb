import type { Sql } from '@faultline/platform';
import type { OwnershipSubject } from '../domain/ownership-matcher';
import type { OwnershipRule } from '../domain/ownership-rules';

export type { OwnershipSubject } from '../domain/ownership-matcher';
export type { OwnershipRule, OwnershipSchema, OwnershipOwner } from '../domain/ownership-rules';

/** A team or an active member of the organization that a rule names, as it is now. */
export interface EventOwner {
  readonly type: 'team' | 'user';
  readonly id: string;
  /** A team's slug; a user's name, or e-mail address when it has none. */
  readonly name: string;
  readonly email?: string;
}

export interface EventOwnership {
  /** The project auto-assigns new issues to their owner ("Auto Assign to Issue Owner"). */
  readonly autoAssignment: boolean;
  /** The rules the event matches, the one that takes precedence (the last in the text) first. */
  readonly rules: readonly OwnershipRule[];
  /** Their owners that still exist, in the rules' order, each once: the first is the one to assign. */
  readonly owners: readonly EventOwner[];
}

/** Who owns an event under its project's ownership rules, read by other contexts in their own transaction. */
export abstract class ProjectOwnership {
  abstract ownersOf(sql: Sql, projectId: string, subject: OwnershipSubject): Promise<EventOwnership>;
}
