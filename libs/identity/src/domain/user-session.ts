import { randomBytes } from 'node:crypto';
import { sha256Hex } from '@faultline/kernel';

export interface IssuedSession {
  /** The cookie's value: given to the browser once, stored only as its hash. */
  readonly cookieValue: string;
  readonly tokenHash: string;
  /** Sent back by the browser's scripts in X-CSRFToken with every state-changing request. */
  readonly csrfToken: string;
}

export function issueSession(): IssuedSession {
  const cookieValue = randomBytes(32).toString('base64url');
  return { cookieValue, tokenHash: hashSessionCookie(cookieValue), csrfToken: randomBytes(32).toString('base64url') };
}

export const hashSessionCookie = (cookieValue: string): string => sha256Hex(`session:${cookieValue}`);
