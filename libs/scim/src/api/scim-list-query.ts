import { ScimError } from '../domain/scim-error';
import { type Filter, parseFilter } from '../domain/scim-filter';
import { MAX_PAGE_SIZE, withoutCoreSchema } from '../domain/scim-schemas';

export interface ScimListQuery {
  readonly startIndex: number;
  readonly count: number;
  readonly filter?: Filter;
  /** Lower-cased attribute paths without the core schema's URN. */
  readonly attributes?: string[];
  readonly excludedAttributes?: string[];
}

function integer(raw: unknown, name: string): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const text = String(raw).trim();
  if (!/^-?\d{1,15}$/.test(text)) throw ScimError.badRequest('invalidValue', `${name} must be an integer.`);
  return Number(text);
}

function paths(raw: unknown): string[] | undefined {
  if (raw === undefined || raw === '') return undefined;
  const list = (Array.isArray(raw) ? raw : [raw]).flatMap((value) => String(value).split(','));
  return list.map((path) => withoutCoreSchema(path.trim()).toLowerCase()).filter(Boolean);
}

/**
 * `startIndex` (1-based; below 1 is 400), `count` (negative is 0, above 100 is 100), `filter`,
 * `attributes` and `excludedAttributes` (comma-separated), as RFC 7644 §3.4.2 and Sentry read them.
 */
export function parseListQuery(query: Record<string, unknown>): ScimListQuery {
  const startIndex = integer(query.startIndex, 'startIndex') ?? 1;
  if (startIndex < 1) throw ScimError.badRequest('invalidValue', 'startIndex must be 1 or more.');
  const count = Math.min(MAX_PAGE_SIZE, Math.max(0, integer(query.count, 'count') ?? MAX_PAGE_SIZE));
  const filter = query.filter === undefined ? undefined : parseFilter(Array.isArray(query.filter) ? String(query.filter[0]) : String(query.filter));
  return { startIndex, count, filter, attributes: paths(query.attributes), excludedAttributes: paths(query.excludedAttributes) };
}

/** `attributes` / `excludedAttributes` of a single-resource request. */
export function parseProjection(query: Record<string, unknown>): Pick<ScimListQuery, 'attributes' | 'excludedAttributes'> {
  return { attributes: paths(query.attributes), excludedAttributes: paths(query.excludedAttributes) };
}

/** Whether a projection leaves an attribute out, so that it need not be read at all. */
export function leavesOut(projection: Pick<ScimListQuery, 'attributes' | 'excludedAttributes'>, attribute: string): boolean {
  if (projection.attributes?.length) return !projection.attributes.some((path) => path.split('.')[0] === attribute);
  return projection.excludedAttributes?.includes(attribute) ?? false;
}
