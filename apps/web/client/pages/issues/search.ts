/** The issue stream's state as Sentry keeps it in the URL, and the search box's token arithmetic. */

export const DEFAULT_QUERY = 'is:unresolved';

export const SORTS: ReadonlyArray<[string, string]> = [
  ['date', 'Last seen'],
  ['new', 'First seen'],
  ['freq', 'Events'],
  ['user', 'Users'],
];

/** The stream's time ranges (Sentry's `statsPeriod`); none is all time. */
export const TIME_RANGES: ReadonlyArray<[string, string]> = [
  ['', 'All time'],
  ['1h', 'Last hour'],
  ['24h', 'Last 24 hours'],
  ['7d', 'Last 7 days'],
  ['14d', 'Last 14 days'],
  ['30d', 'Last 30 days'],
  ['90d', 'Last 90 days'],
];

export interface StreamState {
  query: string;
  sort: string;
  environments: string[];
  projects: string[];
  /** A relative range (`24h`), or an absolute one in `start` and `end` (ISO times). */
  statsPeriod?: string;
  start?: string;
  end?: string;
  cursor?: string;
}

/** No `query` parameter is Sentry's default search; an empty one is every issue. */
export function readStreamState(search: string): StreamState {
  const params = new URLSearchParams(search);
  const sort = params.get('sort') ?? 'date';
  return {
    query: params.has('query') ? params.get('query')! : DEFAULT_QUERY,
    sort: SORTS.some(([value]) => value === sort) ? sort : 'date',
    environments: params.getAll('environment').filter(Boolean),
    projects: params.getAll('project').filter(Boolean),
    statsPeriod: params.get('statsPeriod') || undefined,
    start: params.get('start') || undefined,
    end: params.get('end') || undefined,
    cursor: params.get('cursor') || undefined,
  };
}

/** The range's parameters, as the page's URL and the API both take them. */
function appendRange(params: URLSearchParams, state: StreamState): void {
  if (state.statsPeriod) params.set('statsPeriod', state.statsPeriod);
  else if (state.start && state.end) {
    params.set('start', state.start);
    params.set('end', state.end);
  }
}

/** "26–50 of 312": the page's place among the matches (`max` or more are counted as `max+`). */
export function pageRange(cursor: string | undefined, shown: number, hits: number | undefined, max: number | undefined): string {
  if (hits === undefined || shown === 0) return '';
  const offset = Number(cursor?.split(':')[1] ?? 0) || 0;
  return `${offset + 1}–${offset + shown} of ${hits}${max !== undefined && hits >= max ? '+' : ''}`;
}

/** The page's query string: what the URL of this view of the stream says. */
export function streamSearch(state: StreamState): string {
  const params = new URLSearchParams();
  params.set('query', state.query);
  if (state.sort !== 'date') params.set('sort', state.sort);
  for (const environment of state.environments) params.append('environment', environment);
  for (const project of state.projects) params.append('project', project);
  appendRange(params, state);
  if (state.cursor) params.set('cursor', state.cursor);
  return `?${params.toString()}`;
}

/** The API request for that view: the same parameters, one page of 25. */
export function issuesRequest(org: string, state: StreamState): string {
  const params = new URLSearchParams({ query: state.query, sort: state.sort, per_page: '25' });
  for (const environment of state.environments) params.append('environment', environment);
  for (const project of state.projects) params.append('project', project);
  appendRange(params, state);
  if (state.cursor) params.set('cursor', state.cursor);
  return `/api/0/organizations/${encodeURIComponent(org)}/issues/?${params.toString()}`;
}

export interface Token {
  start: number;
  end: number;
  /** `!` when the term is negated. */
  negation: string;
  /** The key before the first colon, or undefined while the term has none. */
  key?: string;
  /** The text being typed: the key so far, or the value after the colon (quotes removed). */
  partial: string;
}

/** The term around the caret: terms are split by spaces outside double quotes. */
export function tokenAt(query: string, caret: number): Token {
  let start = 0;
  let quoted = false;
  for (let index = 0; index < caret; index++) {
    const char = query[index];
    if (char === '"') quoted = !quoted;
    else if (char === ' ' && !quoted) start = index + 1;
  }
  let end = caret;
  while (end < query.length && (quoted || query[end] !== ' ')) {
    if (query[end] === '"') quoted = !quoted;
    end++;
  }
  const term = query.slice(start, end);
  const negation = term.startsWith('!') ? '!' : '';
  const body = term.slice(negation.length);
  const colon = body.indexOf(':');
  if (colon < 0) return { start, end, negation, partial: body };
  return { start, end, negation, key: body.slice(0, colon), partial: body.slice(colon + 1).replace(/^"|"$/g, '') };
}

/**
 * A value as the search syntax needs it: quoted (`\"` and `\\` escaped) when it is empty, holds a
 * space, quote, colon or parenthesis, or starts like a list or a comparison.
 */
export function quoteValue(value: string): string {
  return /[\s":()]/.test(value) || /^[[<>=!]/.test(value) || value === '' ? `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"` : value;
}

/** Tag keys a chip names as they are; the search reads them as the tag (or as the field it comes from). */
const PLAIN_TAG_KEYS = new Set([
  'environment',
  'user',
  'dist',
  'server_name',
  'transaction',
  'url',
  'mechanism',
  'handled',
  'browser',
  'browser.name',
  'os',
  'os.name',
  'client_os',
  'client_os.name',
  'device',
  'device.family',
  'runtime',
  'runtime.name',
]);
/** Single-word keys the searches read as something other than a tag: a chip names them `tags[key]`. */
const RESERVED_KEYS = new Set(
  (
    'is has assigned assigned_to assigned_or_suggested bookmarks bookmarked_by subscribed subscribed_by team detector regressed_in_release ' +
    'date timestamp project project_id title message issue platform age firstSeen first_seen lastSeen last_seen timesSeen times_seen userCount ' +
    'user_count firstRelease first_release first-release level release id culprit type location trace status count event_id group_id unhandled'
  ).split(' '),
);
/** The keys a search can name at all (Sentry's tag keys). */
const SEARCHABLE_KEY = /^[A-Za-z0-9_.:-]{1,200}$/;

/**
 * The search term of a tag chip (`browser.name:Chrome`, `url:"https://x/a b"`, `tags[level]:error`),
 * matching exactly that value in the issue and event searches (a `*` in it is no wildcard); none
 * for a key the search syntax cannot name.
 */
export function tagTerm(key: string, value: string): string | undefined {
  if (!SEARCHABLE_KEY.test(key)) return undefined;
  const name = PLAIN_TAG_KEYS.has(key) || (/^[A-Za-z0-9_-]+$/.test(key) && !RESERVED_KEYS.has(key)) ? key : `tags[${key}]`;
  return `${name}:${quoteValue(value.replace(/\*/g, '\\*'))}`;
}

/**
 * Puts a chosen suggestion in place of the term: a key becomes `key:` (the caret after the colon,
 * ready for a value), a value completes the term and adds a space for the next one.
 */
export function applySuggestion(query: string, token: Token, suggestion: { key: string; value?: string }): { query: string; caret: number } {
  const before = query.slice(0, token.start);
  const after = query.slice(token.end);
  if (suggestion.value === undefined) {
    const term = `${token.negation}${suggestion.key}:`;
    return { query: `${before}${term}${after}`, caret: before.length + term.length };
  }
  const term = `${token.negation}${suggestion.key}:${quoteValue(suggestion.value)} `;
  return { query: `${before}${term}${after.replace(/^ /, '')}`, caret: before.length + term.length };
}

/** The query's terms: split at whitespace outside double quotes, inside which a backslash escapes the next character. */
function splitTerms(query: string): string[] {
  const terms: string[] = [];
  let current = '';
  let quoted = false;
  for (let index = 0; index < query.length; index++) {
    const char = query[index];
    if (quoted && char === '\\' && index + 1 < query.length) {
      current += char + query[++index];
      continue;
    }
    if (char === '"') quoted = !quoted;
    if (!quoted && /\s/.test(char)) {
      if (current) terms.push(current);
      current = '';
    } else current += char;
  }
  if (current) terms.push(current);
  return terms;
}

/** Replaces every `key:` term (negated or not) with `key:value`, or removes them when value is empty. */
export function setTerm(query: string, key: string, value: string): string {
  const kept = splitTerms(query).filter((term) => !term.replace(/^!/, '').startsWith(`${key}:`));
  if (value) kept.push(`${key}:${quoteValue(value)}`);
  return kept.join(' ');
}

/** The value of the first un-negated `key:` term, unquoted; empty when there is none. */
export function termValue(query: string, key: string): string {
  const term = splitTerms(query).find((candidate) => candidate.startsWith(`${key}:`));
  if (!term) return '';
  const raw = term.slice(key.length + 1);
  return raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
}
