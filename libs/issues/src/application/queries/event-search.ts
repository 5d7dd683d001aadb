import { DomainError } from '@faultline/kernel';
import {
  booleanValue,
  type ComparisonOperator,
  CONTEXT_TAG_KEYS,
  dateBounds,
  invalid,
  number,
  scanSearchQuery,
  type Term,
  type TextMatch,
  textMatch,
  textTerm,
  values,
} from './issue-search';

/** Sentry's `meta.fields` types of the errors dataset. */
export type EventFieldType = 'string' | 'integer' | 'date' | 'array' | 'boolean';

/** The stored fields of an error event that the events API can select, group by and search. */
export const EVENT_FIELDS = {
  id: 'string',
  title: 'string',
  message: 'string',
  issue: 'string',
  'issue.id': 'integer',
  project: 'string',
  'project.id': 'integer',
  'project.name': 'string',
  timestamp: 'date',
  level: 'string',
  release: 'string',
  environment: 'string',
  dist: 'string',
  user: 'string',
  'user.id': 'string',
  'user.email': 'string',
  'user.username': 'string',
  'user.ip': 'string',
  'user.display': 'string',
  culprit: 'string',
  transaction: 'string',
  platform: 'string',
  'error.type': 'array',
  'error.value': 'array',
  'error.unhandled': 'boolean',
  'error.handled': 'boolean',
} as const satisfies Record<string, EventFieldType>;

export type EventFieldName = keyof typeof EVENT_FIELDS;

/** A plain field: one of the event's own, or a tag (by name or `tags[key]`). */
export type EventField = { readonly kind: 'field'; readonly name: EventFieldName } | { readonly kind: 'tag'; readonly key: string };

export type EventAggregate =
  { readonly fn: 'count' } | { readonly fn: 'count_unique'; readonly of: EventField } | { readonly fn: 'last_seen' } | { readonly fn: 'first_seen' };

/** One column of the answer, named as the request named it (`count()`, `tags[browser]`). */
export type EventColumn =
  | { readonly name: string; readonly type: EventFieldType; readonly kind: 'field'; readonly field: EventField }
  | { readonly name: string; readonly type: EventFieldType; readonly kind: 'aggregate'; readonly aggregate: EventAggregate };

/** One condition on events; a search matches the events that meet all of them. */
export type EventFilter =
  /** The field equals or matches one of the values (negated: it does not, or is not set). */
  | { readonly kind: 'match'; readonly field: EventField; readonly negated: boolean; readonly values: readonly TextMatch[] }
  /** The field is set and not empty (negated: it is not). */
  | { readonly kind: 'has'; readonly field: EventField; readonly negated: boolean }
  /** The title or message contains the text, or matches its wildcard. */
  | { readonly kind: 'text'; readonly negated: boolean; readonly like: string }
  | { readonly kind: 'compare'; readonly field: EventField; readonly operator: ComparisonOperator; readonly value: string }
  /** A boolean field is the value (`error.unhandled:true`). */
  | { readonly kind: 'flag'; readonly field: EventField; readonly value: boolean }
  /** A condition on an aggregate of the group (`count():>10`), as SQL's HAVING. */
  | { readonly kind: 'having'; readonly aggregate: EventAggregate; readonly operator: ComparisonOperator; readonly value: string };

export interface EventSearch {
  readonly columns: readonly EventColumn[];
  /** Plain fields the rows are grouped by when the columns hold aggregates. */
  readonly grouped: boolean;
  readonly filters: readonly EventFilter[];
  /** Columns to order by, with their direction. */
  readonly orderBy: ReadonlyArray<{ readonly column: EventColumn; readonly descending: boolean }>;
}

export interface EventSearchRequest {
  readonly fields: readonly string[];
  readonly query?: string;
  readonly sort: readonly string[];
  /** Relative dates (`timestamp:-1h`) count back from here. */
  readonly now: Date;
}

const MAX_FIELDS = 20;
const TAG_KEY = /^[A-Za-z0-9_.:-]{1,200}$/;

/** Sentry's event fields this server does not keep: refusing them beats an answer of empty columns. */
const UNSUPPORTED_PREFIXES = [
  'error.',
  'stack.',
  'http.',
  'geo.',
  'sdk.',
  'os.',
  'device.',
  'app.',
  'trace.',
  'span.',
  'measurements.',
  'transaction.',
  'issue.',
  'event.',
  'release.',
  'project.',
  'contexts.',
  'browser.',
  'runtime.',
  'user.',
  'timestamp.',
  'location.',
  'exception_frames.',
];
const UNSUPPORTED_FIELDS = new Set([
  'event.type',
  'unhandled',
  'location',
  'type',
  'trace',
  'profile.id',
  'replay.id',
  'tags.key',
  'tags.value',
  'is',
  'assigned',
  'bookmarked_by',
  'date',
  'age',
  'status',
  'times_seen',
  'last_seen',
  'first_seen',
  'count',
  'issue.category',
  'issue.priority',
]);

/** The `has:`/`!has:` and key names Sentry accepts as aliases of these fields. */
const FIELD_ALIASES: Record<string, EventFieldName> = {
  event_id: 'id',
  'event.id': 'id',
  group_id: 'issue.id',
  project_id: 'project.id',
  'project.slug': 'project',
  'user.ip_address': 'user.ip',
};

function plainField(name: string): EventField {
  const tagged = /^tags\[(.+)\]$/.exec(name);
  if (tagged) {
    if (!TAG_KEY.test(tagged[1])) throw unsupportedField(name);
    return { kind: 'tag', key: tagged[1] };
  }
  const known = Object.hasOwn(EVENT_FIELDS, name) ? (name as EventFieldName) : Object.hasOwn(FIELD_ALIASES, name) ? FIELD_ALIASES[name] : undefined;
  if (known) return { kind: 'field', name: known };
  if (CONTEXT_TAG_KEYS.has(name)) return { kind: 'tag', key: name };
  if (UNSUPPORTED_FIELDS.has(name) || UNSUPPORTED_PREFIXES.some((prefix) => name.startsWith(prefix)) || !TAG_KEY.test(name)) throw unsupportedField(name);
  return { kind: 'tag', key: name };
}

function unsupportedField(name: string): DomainError {
  return DomainError.invalid(`Unsupported field: ${name}. Errors are searched by ${Object.keys(EVENT_FIELDS).join(', ')} and tags (by name or as tags[key]).`);
}

const typeOf = (field: EventField): EventFieldType => (field.kind === 'field' ? EVENT_FIELDS[field.name] : 'string');

const FUNCTION = /^([a-z_][a-z0-9_]*)\((.*)\)$/;
const FUNCTIONS = ['count()', 'count_unique(field)', 'last_seen()', 'first_seen()'];

function aggregateOf(name: string): EventAggregate | undefined {
  const match = FUNCTION.exec(name);
  if (!match) return undefined;
  const [, fn, argument] = match;
  const arg = argument.trim();
  if ((fn === 'count' || fn === 'last_seen' || fn === 'first_seen') && (arg === '' || (fn === 'count' && arg === 'id'))) return { fn };
  if (fn === 'count_unique' && arg !== '') return { fn, of: plainField(arg) };
  throw DomainError.invalid(`Unsupported function: ${name}. Errors are aggregated with ${FUNCTIONS.join(', ')}.`);
}

function columnOf(name: string): EventColumn {
  const aggregate = aggregateOf(name);
  if (aggregate) return { name, kind: 'aggregate', aggregate, type: aggregate.fn === 'last_seen' || aggregate.fn === 'first_seen' ? 'date' : 'integer' };
  const field = plainField(name);
  return { name, kind: 'field', field, type: typeOf(field) };
}

/** Sentry's sort names an aggregate by its alias too: `count` for `count()`, `count_unique_user` for `count_unique(user)`. */
const aliasOf = (name: string): string => name.replace(/\(\)$/, '').replace(/\((.+)\)$/, (_, argument: string) => `_${argument.replace(/[.[\]]/g, '_')}`);

function orderOf(columns: readonly EventColumn[], sort: readonly string[]): EventSearch['orderBy'] {
  return sort
    .filter((entry) => entry !== '')
    .map((entry) => {
      const descending = entry.startsWith('-');
      const name = descending ? entry.slice(1) : entry;
      const column = columns.find((candidate) => candidate.name === name || aliasOf(candidate.name) === name);
      if (!column)
        throw DomainError.invalid(`Cannot sort by ${name}: sort by one of the selected fields (${columns.map((candidate) => candidate.name).join(', ')}).`);
      return { column, descending };
    });
}

const LIKE_ESCAPE = /[\\%_]/g;

function filterOf(term: Extract<Term, { type: 'filter' }>, now: Date): EventFilter[] {
  if (!term.explicitTag && term.key === 'has') {
    if (term.value.form !== 'plain' || term.operator) throw invalid('Invalid format for "has" search: was expecting a field or tag instead');
    return [{ kind: 'has', field: plainField(term.value.text), negated: term.negated }];
  }
  const aggregate = term.explicitTag ? undefined : aggregateOf(term.key);
  if (aggregate) {
    if (term.value.form !== 'plain') throw invalid(`${term.key}: compare an aggregate with one value.`);
    const operator = negate(term.operator ?? '=', term.negated);
    const value = aggregate.fn === 'count' || aggregate.fn === 'count_unique' ? number(term.key, term.value.text) : single(dateBounds(term, now), term.key).at;
    return [{ kind: 'having', aggregate, operator, value }];
  }
  const field = term.explicitTag ? plainField(`tags[${term.key}]`) : plainField(term.key);
  const type = typeOf(field);
  if (type === 'date') return dateBounds(term, now).map(({ operator, at }) => ({ kind: 'compare', field, operator: negate(operator, false), value: at }));
  if (type === 'integer') {
    if (term.value.form === 'quoted') throw invalid(`${term.key}: Invalid number: "${term.value.text}".`);
    const texts = values(term.value).map((text) => number(term.key, text));
    const operator = negate(term.operator ?? '=', term.negated);
    if (texts.length > 1) {
      if (operator !== '=' && operator !== '!=') throw invalid(`${term.key}: a list compares only with = or !=.`);
      return [{ kind: 'match', field, negated: operator === '!=', values: texts.map((text) => ({ equals: text })) }];
    }
    return [{ kind: 'compare', field, operator, value: texts[0] }];
  }
  const { negated, values: texts } = textTerm(term);
  if (type === 'boolean') return [{ kind: 'flag', field, value: booleanValue(term.key, texts) !== negated }];
  if (term.value.form === 'quoted' && term.value.text === '') return [{ kind: 'has', field, negated: !negated }];
  return [{ kind: 'match', field, negated, values: texts.map(textMatch) }];
}

function single<T>(bounds: T[], key: string): T {
  if (bounds.length !== 1) throw invalid(`${key}: compare with >, >=, < or <= and one date.`);
  return bounds[0];
}

const NEGATED: Record<ComparisonOperator, ComparisonOperator> = { '=': '!=', '!=': '=', '>': '<=', '>=': '<', '<': '>=', '<=': '>' };
const negate = (operator: ComparisonOperator, negated: boolean): ComparisonOperator => (negated ? NEGATED[operator] : operator);

/** Free text matches the title or message: anywhere, or as its `*` wildcard says. */
function textFilter(text: string, negated: boolean): EventFilter {
  const match = textMatch(text);
  return { kind: 'text', negated, like: 'like' in match ? match.like : `%${match.equals.replace(LIKE_ESCAPE, (char) => `\\${char}`)}%` };
}

/**
 * Sentry's events API over the errors dataset: the selected fields and aggregates (plain fields
 * group the rows when there are aggregates), the search in Sentry's syntax (the issue search's
 * scanner), and the sort. Anything it cannot answer is a DomainError naming it (400).
 */
export function parseEventSearch(request: EventSearchRequest): EventSearch {
  if (request.fields.length === 0) throw DomainError.invalid('No columns selected: give one or more field parameters.');
  if (request.fields.length > MAX_FIELDS) throw DomainError.invalid(`At most ${MAX_FIELDS} fields can be selected.`);
  const columns = [...new Set(request.fields)].map(columnOf);
  const grouped = columns.some((column) => column.kind === 'aggregate');
  const filters: EventFilter[] = [];
  let phrase: string[] = [];
  const endPhrase = () => {
    if (phrase.length) filters.push(textFilter(phrase.join(' '), false));
    phrase = [];
  };
  for (const term of scanSearchQuery(request.query ?? '')) {
    if (term.type === 'text' && !term.quoted) {
      phrase.push(term.text);
      continue;
    }
    endPhrase();
    if (term.type === 'text') {
      if (term.text !== '') filters.push(textFilter(term.text, false));
      continue;
    }
    filters.push(...filterOf(term, request.now));
  }
  endPhrase();
  if (!grouped && filters.some((filter) => filter.kind === 'having'))
    throw DomainError.invalid('A condition on an aggregate needs that aggregate among the fields.');
  return { columns, grouped, filters, orderBy: orderOf(columns, request.sort) };
}

/** Sentry's attribute types (`attrType`) of the event search's field types. */
const ATTRIBUTE_TYPES: Record<EventFieldType, 'string' | 'number'> = {
  string: 'string',
  integer: 'number',
  date: 'string',
  array: 'string',
  boolean: 'string',
};

export interface EventSearchValidation {
  readonly field: Array<{ name: string; valid: boolean; attrType: 'string' | 'number' | null; error: string | null }>;
  readonly query: { valid: boolean; error: string | null; fields: [] };
  readonly orderby: Array<{ name: string; valid: boolean; attrType: null; error: string | null }>;
}

/**
 * Each part of a search judged on its own, as Sentry's `events/validate` answers: every field, the
 * query (with the valid fields), each sort; the messages are those the search itself would give.
 */
export function validateEventSearch(request: EventSearchRequest): EventSearchValidation {
  const problem = (work: () => unknown): string | null => {
    try {
      work();
      return null;
    } catch (error) {
      if (error instanceof DomainError) return error.message;
      throw error;
    }
  };
  const field = [...new Set(request.fields)].slice(0, MAX_FIELDS + 1).map((name) => {
    const error = problem(() => parseEventSearch({ fields: [name], sort: [], now: request.now }));
    return { name, valid: error === null, attrType: error === null ? ATTRIBUTE_TYPES[columnOf(name).type] : null, error };
  });
  const usable = field.filter((entry) => entry.valid).map((entry) => entry.name);
  const fields = usable.length > 0 ? usable : ['count()'];
  const queryError = problem(() => parseEventSearch({ fields, query: request.query, sort: [], now: request.now }));
  const orderby = request.sort
    .filter((name) => name !== '')
    .map((name) => {
      const error = problem(() => parseEventSearch({ fields, sort: [name], now: request.now }));
      return { name, valid: error === null, attrType: null, error };
    });
  return { field, query: { valid: queryError === null, error: queryError, fields: [] }, orderby };
}
