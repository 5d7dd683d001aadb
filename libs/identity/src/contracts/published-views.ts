/** The views other contexts may read in SQL: identity's published reads (see docs/extending.md). */
export const IDENTITY_PUBLISHED_VIEWS = [
  'identity.organization_directory',
  'identity.organization_data_privacy',
  'identity.member_directory',
  'identity.team_directory',
  'identity.team_memberships',
  'identity.scim_users',
  'identity.scim_groups',
  'identity.scim_group_members',
  'identity.scim_member_counts',
] as const;
