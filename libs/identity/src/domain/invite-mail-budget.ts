import { createHash } from 'node:crypto';

/**
 * Invitation mails go from the instance's sender with a name the tenant chose, to any address, so
 * each organization has a budget of them (reinvites included), as Sentry has: a few mails to one
 * address a day, a number an hour, and a cap on the invitations waiting to be accepted.
 */
export interface InviteMailLimits {
  /** Mails to one address from one organization per RECIPIENT_WINDOW_MS (fixed). */
  readonly perRecipient: number;
  /** Mails from one organization per ORGANIZATION_WINDOW_MS. */
  readonly perOrganization: number;
  /** Invitations of one organization not yet accepted or revoked. */
  readonly pendingPerOrganization: number;
}

export const RECIPIENT_WINDOW_MS = 86_400_000;
export const ORGANIZATION_WINDOW_MS = 3_600_000;
export const MAILS_PER_RECIPIENT = 3;

/** What the organization has sent lately, read under its lock. */
export interface InviteMailHistory {
  /** The organization's pending invitations; null for a reinvite, which adds none. */
  readonly pending: number | null;
  /** When the oldest of the organization's last `perOrganization` mails inside its window went; null while fewer went. */
  readonly organizationFullSince: Date | null;
  /** The same for the address and `perRecipient`. */
  readonly recipientFullSince: Date | null;
}

export type InviteMailDecision = { readonly admitted: true } | { readonly admitted: false; readonly detail: string; readonly retryAfterSeconds?: number };

/** Whether one more invitation mail may go now; when not, why and, if waiting helps, for how long. */
export function decideInviteMail(history: InviteMailHistory, limits: InviteMailLimits, now: Date): InviteMailDecision {
  if (history.pending !== null && history.pending >= limits.pendingPerOrganization) {
    return {
      admitted: false,
      detail: `This organization has ${limits.pendingPerOrganization} pending invitations: revoke some before inviting more.`,
    };
  }
  const waits: Array<{ detail: string; seconds: number }> = [];
  if (history.recipientFullSince) {
    waits.push({
      detail: `This address was sent ${limits.perRecipient} invitations in the last 24 hours. Try again later.`,
      seconds: secondsUntil(history.recipientFullSince, RECIPIENT_WINDOW_MS, now),
    });
  }
  if (history.organizationFullSince) {
    waits.push({
      detail: `This organization sent ${limits.perOrganization} invitations in the last hour. Try again later.`,
      seconds: secondsUntil(history.organizationFullSince, ORGANIZATION_WINDOW_MS, now),
    });
  }
  if (waits.length === 0) return { admitted: true };
  const longest = waits.reduce((a, b) => (b.seconds > a.seconds ? b : a));
  return { admitted: false, detail: longest.detail, retryAfterSeconds: longest.seconds };
}

const secondsUntil = (fullSince: Date, windowMs: number, now: Date): number => Math.max(1, Math.ceil((fullSince.getTime() + windowMs - now.getTime()) / 1000));

/** Addresses are counted by hash, so the counts keep no address once an invitation is gone. */
export const recipientHash = (email: string): string => createHash('sha256').update(email.toLowerCase()).digest('hex');

/** A refused invitation mail: nothing was changed. */
export class InviteMailRefused extends Error {
  constructor(
    readonly detail: string,
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(detail);
    this.name = 'InviteMailRefused';
  }
}
