import { randomBytes, timingSafeEqual } from 'node:crypto';

/** Invites last a week, as Sentry's do; a reinvite starts the week again. */
export const INVITE_TTL_MS = 7 * 86_400_000;

export const newInviteToken = (): string => randomBytes(32).toString('hex');

/** Whether a presented token is the invite's, compared in constant time. */
export function inviteTokenMatches(expected: string, presented: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}

const EMAIL = /^[^\s@<>()",;:]+@[^\s@<>()",;:]+\.[^\s@<>()",;:]+$/;

/** An address an invitation can go to: one mailbox, no display name, no header tricks. */
export function normaliseInviteEmail(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const email = raw.trim();
  return email.length <= 320 && EMAIL.test(email) ? email : null;
}
