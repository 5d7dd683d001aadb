/** Sentry's `status` of a linked identity: whether its user may unlink it themselves. */
export type LinkedIdentityStatus = 'can_disconnect' | 'needed_for_org_auth' | 'needed_for_global_auth';

/**
 * Sentry's rule for organization identities, where Faultline has no "allow unlinked" flag: while the
 * organization requires single sign-on, only its owners (who manage the provider and can sign in
 * again through it to re-link) may unlink; without a password the link is the user's only way in.
 */
export function linkedIdentityStatus(link: { ssoRequired: boolean; isOwner: boolean; hasPassword: boolean }): LinkedIdentityStatus {
  if (link.ssoRequired && !link.isOwner) return 'needed_for_org_auth';
  return link.hasPassword ? 'can_disconnect' : 'needed_for_global_auth';
}

export const UNLINK_REFUSALS: Record<Exclude<LinkedIdentityStatus, 'can_disconnect'>, string> = {
  needed_for_org_auth: 'You need this identity to access your organization: it requires single sign-on.',
  needed_for_global_auth: 'You need this identity to sign in. Set a password first to unlink it.',
};
