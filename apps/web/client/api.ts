/** The interface talks to the same /api/0/ as every other client, authenticated by its session cookie. */

let csrfToken: string | undefined;

export function setCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    /** Messages per request field, from the API's `errors` or a `detail` that names the field. */
    readonly fields: Record<string, string>,
  ) {
    super(detail);
  }

  /** The message for a field, when the API's answer concerns it. */
  field(name: string): string | undefined {
    return this.fields[name];
  }
}

export interface Page<T> {
  items: T[];
  nextCursor?: string;
  previousCursor?: string;
  /** Sentry's `X-Hits` and `X-Max-Hits`, when the list counts its matches. */
  hits?: number;
  maxHits?: number;
}

/** Only a 400 concerns the input; a 401, 403 or 404 is about the request as a whole, whatever it names. */
export function fieldErrors(status: number, body: any, fieldNames: readonly string[]): Record<string, string> {
  const fields: Record<string, string> = {};
  if (status !== 400) return fields;
  if (body && typeof body.errors === 'object' && body.errors) {
    for (const [name, messages] of Object.entries(body.errors)) fields[name] = Array.isArray(messages) ? messages.join(' ') : String(messages);
  }
  const detail = typeof body?.detail === 'string' ? body.detail : '';
  for (const name of fieldNames) {
    // eslint-disable-next-line no-restricted-syntax -- the page's own field names, matched against the server's detail; no quantifier.
    if (!fields[name] && new RegExp(`\\b${name}\\b`, 'i').test(detail)) fields[name] = detail;
  }
  // DRF-style bodies: {"field": ["message"]}.
  for (const name of fieldNames) {
    if (!fields[name] && Array.isArray(body?.[name])) fields[name] = body[name].join(' ');
  }
  return fields;
}

/** One API call. `fields` names the form fields whose errors the caller shows next to them. */
export async function api<T = any>(method: string, path: string, body?: unknown, fields: readonly string[] = []): Promise<{ body: T; headers: Headers }> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrftoken'] = csrfToken;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
  const text = await response.text();
  let parsed: any;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  if (!response.ok) {
    // Sentry's structured refusals: {"detail": {"code": "2fa-required", "message": …}}.
    const refusal = typeof parsed?.detail?.code === 'string' ? (parsed.detail as { code: string; message?: string }) : undefined;
    const detail =
      typeof parsed?.detail === 'string'
        ? parsed.detail
        : refusal?.code === '2fa-required'
          ? `${refusal.message ?? 'Two-factor authentication is required'}: set up an authenticator app under Account security.`
          : (refusal?.message ?? `The server answered ${response.status}.`);
    const error = new ApiError(response.status, detail, fieldErrors(response.status, parsed, fields));
    // Sentry's answer when the organization requires its single sign-on: go through it.
    if (response.status === 401 && refusal?.code === 'sso-required' && typeof parsed.detail.extra?.loginUrl === 'string') {
      location.assign(parsed.detail.extra.loginUrl);
      // A member refused for want of a second factor is still signed in.
    } else if (response.status === 401 && !refusal && !path.startsWith('/api/0/auth/')) onUnauthenticated?.();
    throw error;
  }
  return { body: parsed as T, headers: response.headers };
}

let onUnauthenticated: (() => void) | undefined;

/** What to do when the session has ended (expired or revoked elsewhere): back to the sign-in page. */
export function whenUnauthenticated(handler: () => void): void {
  onUnauthenticated = handler;
}

/** A list page with the cursor of the next one, from Sentry's Link header. */
export async function list<T = any>(path: string): Promise<Page<T>> {
  const { body, headers } = await api<T[]>('GET', path);
  const link = headers.get('link') ?? '';
  const next = /<[^>]*>;\s*rel="next";\s*results="true";\s*cursor="([^"]+)"/.exec(link);
  const previous = /<[^>]*>;\s*rel="previous";\s*results="true";\s*cursor="([^"]+)"/.exec(link);
  const count = (name: string) => (headers.get(name) === null ? undefined : Number(headers.get(name)));
  return { items: body, nextCursor: next?.[1], previousCursor: previous?.[1], hits: count('x-hits'), maxHits: count('x-max-hits') };
}

export const enc = encodeURIComponent;
