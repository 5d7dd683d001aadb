import { DomainError } from './domain-error';

/** Sentry's token scopes. `X:admin` implies `X:write` implies `X:read`; org:admin implies org:integrations. */
export const ALL_SCOPES = [
  'org:read',
  'org:write',
  'org:admin',
  'org:integrations',
  'member:read',
  'member:write',
  'member:admin',
  'team:read',
  'team:write',
  'team:admin',
  'project:read',
  'project:write',
  'project:admin',
  'project:releases',
  'event:read',
  'event:write',
  'event:admin',
  'alerts:read',
  'alerts:write',
] as const;

export type Scope = (typeof ALL_SCOPES)[number];

const SCOPE_SET: ReadonlySet<string> = new Set(ALL_SCOPES);

const IMPLIED: Readonly<Record<string, readonly Scope[]>> = {
  'org:admin': ['org:write', 'org:read', 'org:integrations'],
  'org:write': ['org:read'],
  'member:admin': ['member:write', 'member:read'],
  'member:write': ['member:read'],
  'team:admin': ['team:write', 'team:read'],
  'team:write': ['team:read'],
  'project:admin': ['project:write', 'project:read', 'project:releases'],
  'project:write': ['project:read'],
  'event:admin': ['event:write', 'event:read'],
  'event:write': ['event:read'],
  'alerts:write': ['alerts:read'],
};

export function isScope(value: string): value is Scope {
  return SCOPE_SET.has(value);
}

/** The scopes granted, with everything they imply. */
export function expandScopes(scopes: Iterable<string>): Set<Scope> {
  const result = new Set<Scope>();
  for (const scope of scopes) {
    if (!isScope(scope)) continue;
    result.add(scope);
    for (const implied of IMPLIED[scope] ?? []) result.add(implied);
  }
  return result;
}

export function intersectScopes(a: Iterable<Scope>, b: ReadonlySet<Scope>): Set<Scope> {
  const result = new Set<Scope>();
  for (const scope of a) if (b.has(scope)) result.add(scope);
  return result;
}

/**
 * The scopes a holder may hand on, to a token it creates, an app it defines or a token minted from
 * an app: known names only, and never more than the holder has, so nothing narrow creates something
 * broader. Answers the distinct names, sorted.
 */
export function grantableScopes(requested: readonly string[], holderScopes: ReadonlySet<Scope>): Scope[] {
  const unknown = requested.filter((scope) => !isScope(scope));
  if (unknown.length) throw DomainError.invalid(`Unknown scope: ${unknown.join(', ')}`, { errors: { scopes: [`Unknown scope: ${unknown.join(', ')}`] } });
  const excess = [...expandScopes(requested)].filter((scope) => !holderScopes.has(scope));
  if (excess.length) {
    const message = `You cannot grant scopes you do not have: ${excess.join(', ')}`;
    throw new DomainError('forbidden', message, { errors: { scopes: [message] } });
  }
  return [...new Set(requested)].sort() as Scope[];
}

/**
 * What two grants have in common, named as briefly as the grants name it: `event:write` and
 * `event:read` have `event:read` in common; `event:write` and `event:admin`, `event:write`.
 */
export function commonScopes(a: Iterable<string>, b: Iterable<string>): Scope[] {
  const common = intersectScopes(expandScopes(a), expandScopes(b));
  return [...common].filter((scope) => ![...common].some((other) => other !== scope && IMPLIED[other]?.includes(scope))).sort();
}

/** Whether `scopes` grant nothing beyond `within`. */
export function scopesWithin(scopes: Iterable<string>, within: Iterable<string>): boolean {
  const allowed = expandScopes(within);
  return [...expandScopes(scopes)].every((scope) => allowed.has(scope));
}
