/** Finds a team of an organization by numeric id or slug; answers TeamSummary or null. */
export class FindTeamQuery {
  constructor(
    readonly organizationId: string,
    readonly teamIdOrSlug: string,
  ) {}
}

export interface TeamSummary {
  readonly id: string;
  readonly slug: string;
  readonly name: string;
}

/** Finds the teams a user belongs to in an organization; answers TeamSummary[]. */
export class FindUserTeamsQuery {
  constructor(
    readonly organizationId: string,
    readonly userId: string,
  ) {}
}

/** Finds a user account by e-mail (case-insensitive) or id; answers UserSummary or null. */
export class FindUserQuery {
  constructor(readonly by: { readonly email: string } | { readonly id: string }) {}
}

export interface UserSummary {
  readonly id: string;
  readonly email: string;
  readonly hasPassword: boolean;
}

/** How many user accounts the instance has; answers a number. */
export class CountUsersQuery {}

/** Finds an organization by slug or numeric id; answers OrganizationSummary or null. */
export class FindOrganizationQuery {
  constructor(readonly idOrSlug: string) {}
}

export interface OrganizationSummary {
  readonly id: string;
  readonly slug: string;
}

/**
 * Whether the caller may read an organization's event attachments (Sentry's `event.attachments`
 * rule): an instance administrator may; otherwise only a member whose role ranks at least the
 * organization's `attachmentsRole`, so a token that acts for no user may not. Answers a boolean.
 */
export class MayReadAttachmentsQuery {
  constructor(
    readonly organizationId: string,
    readonly caller: { readonly isSuperuser: boolean; readonly userId?: string; readonly memberRole?: string },
  ) {}
}

/** Whether an API token with this value exists; answers a boolean. */
export class ApiTokenExistsQuery {
  constructor(readonly plaintext: string) {}
}
