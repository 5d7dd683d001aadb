import { DomainError, isValidSlug, slugify } from '@faultline/kernel';

/** One change an identity provider makes to a team, in the order it sends them. */
export type TeamChange =
  | { readonly kind: 'rename'; readonly name: string }
  | { readonly kind: 'setExternalId'; readonly externalId: string | null }
  | { readonly kind: 'addMembers'; readonly memberIds: readonly string[] }
  | { readonly kind: 'removeMembers'; readonly memberIds: readonly string[] }
  | { readonly kind: 'replaceMembers'; readonly memberIds: readonly string[] };

export interface TeamState {
  readonly name: string;
  readonly slug: string;
  readonly externalId: string | null;
  readonly memberIds: readonly string[];
}

export interface TeamOutcome extends TeamState {
  readonly added: string[];
  readonly removed: string[];
  readonly renamed: boolean;
  readonly externalIdChanged: boolean;
}

export const MAX_TEAM_NAME = 64;

/** A team's name and the slug derived from it, as Sentry derives a SCIM group's slug from its displayName. */
export function teamNameAndSlug(name: string): { name: string; slug: string } {
  const trimmed = typeof name === 'string' ? name.trim() : '';
  if (!trimmed || trimmed.length > MAX_TEAM_NAME) throw DomainError.invalid(`displayName must be 1 to ${MAX_TEAM_NAME} characters`);
  const slug = slugify(trimmed);
  if (!isValidSlug(slug)) throw DomainError.invalid(`displayName "${trimmed}" gives no valid slug`);
  return { name: trimmed, slug };
}

/** Applies the changes in order; answers the team after them and what differs from before. */
export function applyTeamChanges(before: TeamState, changes: readonly TeamChange[]): TeamOutcome {
  let { name, slug, externalId } = before;
  const members = new Set(before.memberIds);
  for (const change of changes) {
    switch (change.kind) {
      case 'rename':
        ({ name, slug } = teamNameAndSlug(change.name));
        break;
      case 'setExternalId':
        externalId = change.externalId;
        break;
      case 'addMembers':
        for (const id of change.memberIds) members.add(id);
        break;
      case 'removeMembers':
        for (const id of change.memberIds) members.delete(id);
        break;
      case 'replaceMembers':
        members.clear();
        for (const id of change.memberIds) members.add(id);
        break;
    }
  }
  const previous = new Set(before.memberIds);
  return {
    name,
    slug,
    externalId,
    memberIds: [...members],
    added: [...members].filter((id) => !previous.has(id)),
    removed: before.memberIds.filter((id) => !members.has(id)),
    renamed: name !== before.name || slug !== before.slug,
    externalIdChanged: externalId !== before.externalId,
  };
}

/** Member ids a list of changes adds (those must exist in the organization). */
export function memberIdsAdded(changes: readonly TeamChange[]): string[] {
  return [...new Set(changes.flatMap((change) => (change.kind === 'addMembers' || change.kind === 'replaceMembers' ? change.memberIds : [])))];
}
