import { isIP } from 'node:net';
import { EVENT_LIMITS } from './limits';
import { assign, isObject, nonEmpty, scalarText, str, truncate } from './fields';
import { smallObject } from './json-bounds';
import type { NormalizedGeo, NormalizedUser } from './types';

const USER_FIELDS = new Set(['id', 'email', 'username', 'name', 'ip_address', 'geo', 'data', 'segment', 'sentry_user']);

/** The user: known fields bounded, the address checked (`{{auto}}` is the client's), the rest in `data`. */
export function normalizeUser(value: unknown, clientIp: string | undefined): NormalizedUser | undefined {
  if (!isObject(value)) return undefined;
  const user: NormalizedUser = {};
  const id = scalarText(value.id);
  assign(user, 'id', id === undefined ? undefined : nonEmpty(truncate(id.trim(), EVENT_LIMITS.field)));
  assign(user, 'email', str(value.email, EVENT_LIMITS.field));
  assign(user, 'username', str(value.username, EVENT_LIMITS.field));
  assign(user, 'name', str(value.name, EVENT_LIMITS.field));
  const ip = str(value.ip_address);
  // `{{auto}}` asks the server to fill in the address the request came from.
  const address = ip === '{{auto}}' ? clientIp?.trim() : ip;
  if (address && isIP(address)) user.ipAddress = address;
  if (isObject(value.geo)) {
    const geo: NormalizedGeo = {};
    assign(geo, 'countryCode', str(value.geo.country_code, EVENT_LIMITS.shortField));
    assign(geo, 'city', str(value.geo.city, EVENT_LIMITS.field));
    assign(geo, 'subdivision', str(value.geo.subdivision, EVENT_LIMITS.field));
    assign(geo, 'region', str(value.geo.region, EVENT_LIMITS.field));
    if (Object.keys(geo).length > 0) user.geo = geo;
  }
  // Fields other than the known ones go into `data`, as Relay moves them.
  const others = Object.entries(value).filter(([key]) => !USER_FIELDS.has(key));
  const data = Object.fromEntries([...(isObject(value.data) ? Object.entries(value.data) : []), ...others]);
  assign(user, 'data', Object.keys(data).length > 0 ? smallObject(data) : undefined);
  return Object.keys(user).length > 0 ? user : undefined;
}
