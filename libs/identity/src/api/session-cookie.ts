import { SESSION_COOKIE } from '@faultline/platform';

/** The session cookie: httpOnly, SameSite=Lax (a top-level POST from the identity provider still sets it), Secure over https. */
export function sessionCookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  return [`${SESSION_COOKIE}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${maxAgeSeconds}`, ...(secure ? ['Secure'] : [])].join('; ');
}
