import { DomainError } from '@faultline/kernel';

/** Sentry's saved-search visibilities: the owner's own, or every member's. */
export const SAVED_SEARCH_VISIBILITIES = ['owner', 'organization'] as const;
export type SavedSearchVisibility = (typeof SAVED_SEARCH_VISIBILITIES)[number];

/** What a tenant may keep: searches per user (their own) and per organization (shared ones), and a name's length (Sentry's). */
export const SAVED_SEARCH_LIMITS = { perUser: 100, perOrganization: 100, nameLength: 128 } as const;

/** Who changes saved searches: a user (or an organization token, which has none) and whether they hold `org:write`. */
export interface SavedSearchActor {
  readonly userId?: string;
  readonly canWriteOrganization: boolean;
}

/** A saved search as the rules see it. */
export interface SavedSearchAccess {
  readonly ownerId: string | null;
  readonly visibility: SavedSearchVisibility;
}

/** Whether the actor sees the search at all: the organization's, or their own. */
export function canSeeSavedSearch(search: SavedSearchAccess, actor: SavedSearchActor): boolean {
  return search.visibility === 'organization' || (actor.userId !== undefined && search.ownerId === actor.userId);
}

/**
 * Whether the actor may give a search this visibility: an organization's search needs `org:write`
 * (as Sentry's admin serializer), one's own needs a user to own it.
 */
export function checkVisibility(visibility: SavedSearchVisibility, actor: SavedSearchActor): void {
  if (visibility === 'organization' && !actor.canWriteOrganization) {
    throw DomainError.forbidden('Only members with org:write can save searches for the whole organization.');
  }
  if (visibility === 'owner' && !actor.userId) throw DomainError.invalid('visibility: an organization token has no user to own a search; use "organization".');
}

/** A search the actor cannot see is 404; an organization's one they see but may not change is 403. */
export function checkMayChange(search: SavedSearchAccess, actor: SavedSearchActor): void {
  if (!canSeeSavedSearch(search, actor)) throw DomainError.notFound();
  if (search.visibility === 'organization' && !actor.canWriteOrganization) throw DomainError.forbidden();
}

/** Searches a new one of this visibility would count against: the owner's own or the organization's shared ones. */
export function checkBudget(visibility: SavedSearchVisibility, existing: number): void {
  const limit = visibility === 'owner' ? SAVED_SEARCH_LIMITS.perUser : SAVED_SEARCH_LIMITS.perOrganization;
  if (existing >= limit) {
    throw DomainError.invalid(
      visibility === 'owner' ? `You can keep at most ${limit} saved searches.` : `An organization can share at most ${limit} saved searches.`,
    );
  }
}

/** Sentry's answer to saving a query that the owner (or the organization) already keeps. */
export function duplicateQuery(query: string): DomainError {
  return DomainError.invalid(`Query ${query} already exists`);
}
