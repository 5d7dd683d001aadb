import { createHmac, timingSafeEqual } from 'node:crypto';

/** The notification types a user can turn off, as Sentry's notification options name them. */
export const NOTIFICATION_TYPES = ['alerts', 'workflow'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

const sign = (key: string, payload: string): string => createHmac('sha256', key).update(payload).digest('base64url');

/** A link token that turns one type of mail off for one user, without signing in. */
export function unsubscribeToken(key: string, userId: string, type: NotificationType): string {
  const payload = `${userId}.${type}`;
  return `${payload}.${sign(key, payload)}`;
}

/** The user and type a token names, or null when it was not signed with this key. */
export function readUnsubscribeToken(key: string, token: string): { userId: string; type: NotificationType } | null {
  const match = /^(\d{1,19})\.([a-z]+)\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match || !NOTIFICATION_TYPES.includes(match[2] as NotificationType)) return null;
  const expected = Buffer.from(sign(key, `${match[1]}.${match[2]}`));
  const given = Buffer.from(match[3]);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return { userId: match[1], type: match[2] as NotificationType };
}
