import { type Filter, parse } from 'scim2-parse-filter';
import { ScimError } from './scim-error';
import { withoutCoreSchema } from './scim-schemas';

export type { Filter } from 'scim2-parse-filter';

const MAX_FILTER_LENGTH = 4096;

/**
 * Parses a filter (RFC 7644 §3.4.2.2) with scim2-parse-filter. What the library lets through that
 * the grammar does not allow, or reads differently, is settled here: an empty filter is no filter,
 * attribute paths lose the core schema's URN prefix, and anything unparseable is 400 invalidFilter.
 */
export function parseFilter(text: string | undefined): Filter | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  if (text.length > MAX_FILTER_LENGTH) throw ScimError.badRequest('invalidFilter', `The filter is longer than ${MAX_FILTER_LENGTH} characters.`);
  let filter: Filter;
  try {
    filter = parse(lowerCaseLiterals(text));
  } catch (error) {
    throw ScimError.badRequest('invalidFilter', `Invalid filter: ${error instanceof Error ? error.message : String(error)}`);
  }
  return normalise(filter);
}

/**
 * ABNF literals are case-insensitive, so `active eq True` is a valid filter; the library parses
 * values as JSON and knows only `true`, `false` and `null`. Quoted strings are left alone.
 */
function lowerCaseLiterals(text: string): string {
  return text
    .split(/("(?:[^"\\]|\\.)*")/)
    .map((part, index) => (index % 2 === 1 ? part : part.replace(/\b(true|false|null)\b/gi, (word) => word.toLowerCase())))
    .join('');
}

function normalise(filter: Filter): Filter {
  switch (filter.op) {
    case 'and':
    case 'or':
      return { ...filter, filters: filter.filters.map(normalise) };
    case 'not':
      return { ...filter, filter: normalise(filter.filter) };
    case '[]':
      return { ...filter, attrPath: withoutCoreSchema(filter.attrPath), valFilter: normalise(filter.valFilter) };
    default:
      if (typeof filter.attrPath !== 'string') throw ScimError.badRequest('invalidFilter', 'Invalid filter: an attribute path is missing.');
      return { ...filter, attrPath: withoutCoreSchema(filter.attrPath) };
  }
}
