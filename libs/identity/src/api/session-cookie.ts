import { SESSION_COOKIE } from '@faultline/platform';

/** The session cookie: httpOnly, SameSite=Lax (a top-level POST from the identity provider still sets it), Secure over https. */
export function sessionCookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  return [`${SESSION_COOKIE}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${maxAgeSeconds}`, ...(secure ? ['Secure'] : [])].join('; ');
}

/** Binds an OpenID Connect sign-in to the browser that started it; sent back only to the callback, for as long as a sign-in may take. */
export const OIDC_BROWSER_COOKIE = 'faultline_sso';

export function oidcBrowserCookie(value: string, secure: boolean): string {
  return [`${OIDC_BROWSER_COOKIE}=${value}`, 'Path=/auth/sso/', 'HttpOnly', 'SameSite=Lax', 'Max-Age=600', ...(secure ? ['Secure'] : [])].join('; ');
}
