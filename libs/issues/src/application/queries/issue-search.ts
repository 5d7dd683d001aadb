import { DomainError, isNumericId } from '@faultline/kernel';

/** How an issue list is ordered (Sentry's `sort` values) and the column behind each. */
export const ISSUE_SORTS = {
  date: 'last_seen',
  new: 'first_seen',
  freq: 'times_seen',
  user: 'user_count',
} as const;

export type IssueSort = keyof typeof ISSUE_SORTS;

/** Sentry's default search of the issue stream. */
export const DEFAULT_ISSUE_QUERY = 'is:unresolved';

/** A value to match: exactly, or a LIKE pattern made from a `*` wildcard (input escaped). */
export type TextMatch = { readonly equals: string } | { readonly like: string };

/** A release value: as `TextMatch`, or `latest` (each project's latest release). */
export type ReleaseMatch = TextMatch | { readonly latest: true };

/** Who an `assigned:` search names. */
export type AssigneeTarget =
  | { readonly type: 'none' }
  | { readonly type: 'user'; readonly id: string }
  | { readonly type: 'email'; readonly email: string }
  | { readonly type: 'team'; readonly slug: string }
  /** The teams the user is a member of. */
  | { readonly type: 'member_teams'; readonly userId: string };

/** Whose bookmarks a `bookmarks:` search names. */
export type BookmarkTarget = { readonly type: 'user'; readonly id: string } | { readonly type: 'email'; readonly email: string };

/** What is known of an affected user, by Sentry's `user.*` keys. */
export const USER_FIELDS = { 'user.id': 'id', 'user.email': 'email', 'user.username': 'username', 'user.ip': 'ip' } as const;
export type UserField = (typeof USER_FIELDS)[keyof typeof USER_FIELDS];

export type ComparisonOperator = '=' | '!=' | '>' | '>=' | '<' | '<=';

/** One condition of an issue search; a search matches the issues that meet all of them. */
export type IssueSearchFilter =
  | { readonly kind: 'status'; readonly negated: boolean; readonly status: string }
  | { readonly kind: 'substatus'; readonly negated: boolean; readonly substatus: string }
  /** `is:assigned` (negated: `is:unassigned`). */
  | { readonly kind: 'assigned'; readonly negated: boolean }
  | { readonly kind: 'assignee'; readonly negated: boolean; readonly targets: readonly AssigneeTarget[] }
  /** Bookmarked by one of these users (`bookmarks:me`, an e-mail or a user id); negated: by none. */
  | { readonly kind: 'bookmarked'; readonly negated: boolean; readonly users: readonly BookmarkTarget[] }
  /** A column of the issue itself. */
  | { readonly kind: 'column'; readonly column: 'level' | 'platform'; readonly negated: boolean; readonly values: readonly TextMatch[] }
  | { readonly kind: 'first_release'; readonly negated: boolean; readonly values: readonly ReleaseMatch[] }
  /** Some event of the issue carried the tag with one of the values (negated: none did). */
  | { readonly kind: 'tag'; readonly key: string; readonly negated: boolean; readonly values: readonly ReleaseMatch[] }
  /** A user the issue affected has the field with one of the values (negated: none has); `values` empty: the field is set. */
  | { readonly kind: 'user'; readonly field: UserField; readonly negated: boolean; readonly values: readonly TextMatch[] }
  /** Some event of the issue carried the tag (negated: none did). */
  | { readonly kind: 'has_tag'; readonly key: string; readonly negated: boolean }
  /** A column is set (`always`: every issue has it, so `!has:` matches none). */
  | { readonly kind: 'has_column'; readonly column: 'assignee' | 'first_release' | 'always'; readonly negated: boolean }
  /** For one of the matches, the title or culprit is ILIKE its pattern (contains the text, or matches its wildcard), or the short id is its text. */
  | { readonly kind: 'message'; readonly negated: boolean; readonly matches: ReadonlyArray<{ readonly like: string; readonly text: string }> }
  | { readonly kind: 'date'; readonly column: 'first_seen' | 'last_seen'; readonly operator: ComparisonOperator; readonly at: string }
  | { readonly kind: 'number'; readonly column: 'times_seen' | 'user_count'; readonly operator: ComparisonOperator; readonly values: readonly string[] }
  /** Some event of the issue was unhandled (`unhandled`), or none was. */
  | { readonly kind: 'unhandled'; readonly unhandled: boolean }
  | { readonly kind: 'issue_id'; readonly negated: boolean; readonly ids: readonly string[] }
  | { readonly kind: 'short_id'; readonly negated: boolean; readonly shortIds: readonly string[] };

/** What an issue search (`query=is:unresolved environment:production TypeError`) asks for. */
export interface IssueSearch {
  readonly filters: readonly IssueSearchFilter[];
}

export interface IssueSearchContext {
  /** Relative dates (`firstSeen:-24h`) count back from here. */
  readonly now: Date;
  /** The searching user (`assigned:me`); none for an organization token. */
  readonly userId?: string;
  /** Sentry's repeated `environment` parameter: issues seen in any of them. */
  readonly environments?: readonly string[];
}

const MAX_QUERY_LENGTH = 2_000;
const MAX_TERMS = 50;
const MAX_LIST_VALUES = 100;

const IS_STATUS: Record<string, string> = {
  unresolved: 'unresolved',
  resolved: 'resolved',
  ignored: 'ignored',
  archived: 'ignored',
  muted: 'ignored',
};
const IS_SUBSTATUS = new Set(['new', 'ongoing', 'regressed', 'escalating', 'archived_forever', 'archived_until_escalating', 'archived_until_condition_met']);
/** Sentry's `is:` values this server has nothing to answer with. */
const IS_UNSUPPORTED: Record<string, string> = {
  for_review: 'issues have no review inbox here',
  linked: 'links to other tools are not searchable here',
  unlinked: 'links to other tools are not searchable here',
};
const IS_VALUES = [...Object.keys(IS_STATUS), ...IS_SUBSTATUS, 'assigned', 'unassigned', ...Object.keys(IS_UNSUPPORTED)].sort();
const LEVELS = new Set(['fatal', 'error', 'warning', 'info', 'debug', 'sample']);

/** Sentry's issue search keys and their aliases, by what they search. */
const KEY_ALIASES: Record<string, string> = {
  assigned: 'assigned',
  assigned_to: 'assigned',
  assigned_or_suggested: 'assigned',
  bookmarks: 'bookmarks',
  bookmarked_by: 'bookmarks',
  firstRelease: 'first_release',
  'first-release': 'first_release',
  first_release: 'first_release',
  firstSeen: 'first_seen',
  age: 'first_seen',
  first_seen: 'first_seen',
  lastSeen: 'last_seen',
  last_seen: 'last_seen',
  timesSeen: 'times_seen',
  times_seen: 'times_seen',
  userCount: 'user_count',
  user_count: 'user_count',
};

/**
 * Fields of Sentry's searches that this server cannot answer: a silent empty list would be a wrong
 * answer, so they are refused. A tag of the same name can still be searched as `tags[key]:value`.
 */
const UNSUPPORTED_KEYS: Record<string, string> = {
  subscribed: 'subscriptions are not kept',
  subscribed_by: 'subscriptions are not kept',
  team: 'use assigned:#team',
  detector: 'issues have no detectors here',
  regressed_in_release: 'regressions are not kept by release',
  date: 'events are not searched by time; use firstSeen or lastSeen',
  timestamp: 'events are not searched by time; use firstSeen or lastSeen',
  project: 'choose projects with the project parameter',
  project_id: 'choose projects with the project parameter',
  title: 'use message: or free text',
};
/** Tags Sentry derives from an event's contexts, searched as tags although their family is not. */
export const CONTEXT_TAG_KEYS: ReadonlySet<string> = new Set(['browser.name', 'os.name', 'client_os.name', 'device.family', 'runtime.name']);
/** Sentry's event and issue field families (`error.type`, `user.email`, `issue.priority`, …). */
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
  'user.',
  'issue.',
  'event.',
  'release.',
  'project.',
  'contexts.',
  'browser.',
  'runtime.',
];

/** Sentry's answer to a query it cannot parse, with what is wrong. */
export function invalid(message: string): DomainError {
  return DomainError.invalid(`Error parsing search query: ${message}`);
}

export function parseIssueSort(sort: string | undefined): IssueSort {
  if (sort === undefined || sort === '') return 'date';
  if (!Object.hasOwn(ISSUE_SORTS, sort)) {
    throw DomainError.invalid(`Invalid sort: "${sort}"; use one of ${Object.keys(ISSUE_SORTS).join(', ')}`);
  }
  return sort as IssueSort;
}

// ---- scanning ----------------------------------------------------------------------------------

export type RawValue =
  | { readonly form: 'plain'; readonly text: string }
  | { readonly form: 'quoted'; readonly text: string }
  | { readonly form: 'list'; readonly items: readonly string[] };

export type Term =
  | {
      readonly type: 'filter';
      readonly negated: boolean;
      readonly key: string;
      readonly explicitTag: boolean;
      readonly operator: ComparisonOperator | undefined;
      readonly value: RawValue;
      readonly source: string;
    }
  | { readonly type: 'text'; readonly text: string; readonly quoted: boolean };

const KEY_CHAR = /[A-Za-z0-9_.-]/;
const QUOTED_KEY_CHAR = /[A-Za-z0-9_.:-]/;
const OPERATORS: readonly ComparisonOperator[] = ['>=', '<=', '!=', '>', '<', '='];
const isSpace = (char: string | undefined): boolean => char === ' ' || char === '\t' || char === '\n' || char === '\r';
const endsValue = (char: string | undefined): boolean => char === undefined || isSpace(char) || char === ')';

/**
 * Splits a query into filters and free text the way Sentry's grammar does, in one pass: every
 * character is looked at a bounded number of times, so any input takes linear time.
 */
class Scanner {
  private position = 0;

  constructor(private readonly query: string) {}

  terms(): Term[] {
    const terms: Term[] = [];
    for (;;) {
      while (isSpace(this.peek())) this.position++;
      if (this.position >= this.query.length) return terms;
      if (terms.length >= MAX_TERMS) throw invalid(`at most ${MAX_TERMS} search terms are allowed.`);
      terms.push(this.term());
    }
  }

  private peek(offset = 0): string | undefined {
    return this.query[this.position + offset];
  }

  private term(): Term {
    if (this.peek() === '"') return { type: 'text', text: this.quoted(), quoted: true };
    return this.filter() ?? { type: 'text', text: this.word(), quoted: false };
  }

  /** `[!]key:[operator]value`, or undefined (nothing consumed) when the text is not a filter. */
  private filter(): Term | undefined {
    const start = this.position;
    const negated = this.peek() === '!';
    if (negated) this.position++;
    const key = this.key();
    if (key === undefined || this.peek() !== ':') {
      this.position = start;
      return undefined;
    }
    this.position++;
    const operator = OPERATORS.find((candidate) => this.query.startsWith(candidate, this.position));
    if (operator) this.position += operator.length;
    const value = this.value();
    if (value.form === 'plain' && value.text === '') throw invalid(`Empty string after '${key.name}:'`);
    return { type: 'filter', negated, key: key.name, explicitTag: key.explicitTag, operator, value, source: this.query.slice(start, this.position) };
  }

  private key(): { name: string; explicitTag: boolean } | undefined {
    if (this.query.startsWith('tags[', this.position)) {
      const close = this.query.indexOf(']', this.position);
      const name = close < 0 ? '' : this.query.slice(this.position + 5, close).replace(/^"(.*)"$/, '$1');
      if (name === '' || ![...name].every((char) => QUOTED_KEY_CHAR.test(char))) return undefined;
      this.position = close + 1;
      return { name, explicitTag: true };
    }
    if (this.peek() === '"') {
      let end = this.position + 1;
      while (end < this.query.length && QUOTED_KEY_CHAR.test(this.query[end])) end++;
      if (end === this.position + 1 || this.query[end] !== '"') return undefined;
      const name = this.query.slice(this.position + 1, end);
      this.position = end + 1;
      return { name, explicitTag: false };
    }
    let end = this.position;
    while (end < this.query.length && KEY_CHAR.test(this.query[end])) end++;
    if (end === this.position) return undefined;
    // An aggregate key, `count():>10` or `count_unique(user):>2`.
    if (this.query[end] === '(') {
      const close = this.query.indexOf(')', end);
      if (close < 0 || !/^[A-Za-z0-9_.,[\] ]*$/.test(this.query.slice(end + 1, close))) return undefined;
      end = close + 1;
    }
    const name = this.query.slice(this.position, end);
    this.position = end;
    return { name, explicitTag: false };
  }

  private value(): RawValue {
    if (this.peek() === '"') return { form: 'quoted', text: this.quoted() };
    if (this.peek() === '[') {
      const list = this.list();
      if (list) return list;
    }
    const start = this.position;
    while (!endsValue(this.peek()) && this.peek() !== '(') {
      if (this.peek() === '"' && this.query[this.position - 1] !== '\\') {
        throw invalid(`Invalid quote at '${this.query.slice(start, start + 40)}': quotes must enclose text or be escaped.`);
      }
      this.position++;
    }
    return { form: 'plain', text: this.query.slice(start, this.position).replace(/\\"/g, '"') };
  }

  /** `[a, "b c", d]`, or undefined (nothing consumed) when the brackets do not make a list. */
  private list(): RawValue | undefined {
    const start = this.position;
    const items: string[] = [];
    this.position++;
    for (;;) {
      while (isSpace(this.peek())) this.position++;
      let item: string;
      if (this.peek() === '"') {
        item = this.quoted();
      } else {
        const from = this.position;
        while (this.peek() !== undefined && !/[(), \]\t\n\r"]/.test(this.peek() as string)) this.position++;
        item = this.query.slice(from, this.position);
      }
      while (isSpace(this.peek())) this.position++;
      const next = this.peek();
      if (next !== ',' && next !== ']') {
        this.position = start;
        return undefined;
      }
      if (item === '') throw invalid('Lists should not have empty values');
      items.push(item);
      if (items.length > MAX_LIST_VALUES) throw invalid(`a list holds at most ${MAX_LIST_VALUES} values.`);
      this.position++;
      if (next === ']') break;
    }
    if (!endsValue(this.peek())) {
      this.position = start;
      return undefined;
    }
    return { form: 'list', items };
  }

  /** A double-quoted string (`\"` escapes a quote, `\\` a backslash); the position is on the opening quote. */
  private quoted(): string {
    const start = this.position;
    let text = '';
    this.position++;
    for (;;) {
      const char = this.peek();
      if (char === undefined) throw invalid(`Unbalanced quotes at '${this.query.slice(start, start + 40)}': close the quoted text with '"'.`);
      if (char === '\\' && (this.peek(1) === '"' || this.peek(1) === '\\')) {
        text += this.peek(1);
        this.position += 2;
      } else if (char === '"') {
        this.position++;
        return text;
      } else {
        text += char;
        this.position++;
      }
    }
  }

  /** Free text up to the next blank, with parenthesised groups (which may hold blanks) kept whole. */
  private word(): string {
    const start = this.position;
    let depth = 0;
    while (this.position < this.query.length) {
      const char = this.query[this.position];
      if (depth === 0 && isSpace(char)) break;
      if (char === '(') depth++;
      if (char === ')') {
        if (depth === 0) throw this.unmatchedParenthesis();
        depth--;
      }
      if (char === '"' && depth > 0) {
        this.quoted();
        continue;
      }
      this.position++;
    }
    if (depth > 0) throw this.unmatchedParenthesis();
    return this.query.slice(start, this.position);
  }

  private unmatchedParenthesis(): DomainError {
    const column = this.position;
    return invalid(
      `Parse error at '${this.query.slice(Math.max(0, column - 5), column + 5)}' (column ${column}). ` +
        'This is commonly caused by unmatched parentheses. Enclose any text in double quotes.',
    );
  }
}

/**
 * The terms of a query in Sentry's search syntax (shared by issue and event search): filters and
 * free text, with the length, term and list limits and the refusal of AND / OR.
 */
export function scanSearchQuery(query: string): Term[] {
  if (query.length > MAX_QUERY_LENGTH) throw invalid(`a query is at most ${MAX_QUERY_LENGTH} characters long.`);
  const terms = new Scanner(query).terms();
  if (terms.some((term) => term.type === 'text' && !term.quoted && /^(AND|OR)$/i.test(term.text))) {
    throw invalid('Boolean statements containing "OR" or "AND" are not supported in this search');
  }
  return terms;
}

// ---- meaning -----------------------------------------------------------------------------------

const escapeLike = (char: string): string => (char === '%' || char === '_' || char === '\\' ? `\\${char}` : char);

/**
 * A `*` not escaped by a backslash makes a wildcard: a LIKE pattern (backslash escapes) in which
 * the input's own `%`, `_` and `\` match only themselves. Without one, the value is matched exactly.
 */
export function textMatch(value: string): TextMatch {
  let like = '';
  let literal = '';
  let wildcard = false;
  for (let index = 0; index < value.length; index++) {
    const char = value[index];
    if (char === '\\' && value[index + 1] === '*') {
      like += '*';
      literal += '*';
      index++;
    } else if (char === '*') {
      like += '%';
      wildcard = true;
    } else {
      like += escapeLike(char);
      literal += char;
    }
  }
  return wildcard ? { like } : { equals: literal };
}

/** Free text and `message:` match anywhere in the title or culprit, or as their wildcard says. */
function messageFilter(texts: readonly string[], negated: boolean): IssueSearchFilter {
  const matches = texts.map((text) => {
    const match = textMatch(text);
    return { like: 'like' in match ? match.like : `%${[...match.equals].map(escapeLike).join('')}%`, text };
  });
  return { kind: 'message', negated, matches };
}

export const values = (value: RawValue): string[] => (value.form === 'list' ? [...value.items] : [value.text]);

/** `!key:value` and `key:!=value` negate; other operators of a text key belong to its value (Sentry). */
export function textTerm(term: Extract<Term, { type: 'filter' }>): { negated: boolean; values: string[] } {
  if (term.operator === '!=') return { negated: !term.negated, values: values(term.value) };
  if (term.operator === undefined || term.operator === '=') return { negated: term.negated, values: values(term.value) };
  if (term.value.form === 'list') throw invalid(`Invalid operator '${term.operator}' before a list in '${term.source}'`);
  return { negated: term.negated, values: [`${term.operator}${term.value.text}`] };
}

const RELATIVE_DATE = /^([+-])(\d{1,6})([wdhm])$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?)?(Z|[+-]\d{2}:\d{2})?$/;
const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const FIVE_MINUTES = 300_000;

function invalidDate(key: string, value: string): DomainError {
  return invalid(`${key}: Invalid date: ${value}. Expected +/-duration (e.g. +1h) or ISO 8601-like (e.g. 2024-01-31T12:00:00).`);
}

/** An ISO 8601 date or date-time (UTC unless it says otherwise), and whether it names a whole day. */
function absoluteDate(key: string, text: string): { at: number; wholeDay: boolean } | undefined {
  const match = ISO_DATE.exec(text);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second, fraction, zone] = match;
  const wholeDay = hour === undefined;
  const at = Date.parse(
    `${year}-${month}-${day}T${hour ?? '00'}:${minute ?? '00'}:${second ?? '00'}.${(fraction ?? '0').padEnd(3, '0').slice(0, 3)}${zone ?? 'Z'}`,
  );
  const calendar = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  const realDay = calendar.getUTCFullYear() === Number(year) && calendar.getUTCMonth() === Number(month) - 1 && calendar.getUTCDate() === Number(day);
  if (Number.isNaN(at) || !realDay || Number(hour ?? 0) > 23 || Number(minute ?? 0) > 59 || Number(second ?? 0) > 59) {
    throw invalidDate(key, text);
  }
  return { at, wholeDay };
}

/**
 * `firstSeen:-24h` (within the last day), `+7d` (more than a week ago), `>2024-01-01`,
 * `<=2024-01-01T10:00:00Z`, or a bare date (that day) or date-time (five minutes either side).
 */
function dateFilters(column: 'first_seen' | 'last_seen', term: Extract<Term, { type: 'filter' }>, now: Date): IssueSearchFilter[] {
  return dateBounds(term, now).map((bound) => ({ kind: 'date', column, ...bound }));
}

/** The bounds a date term sets (one, or two for a bare date or date-time), each an operator and an ISO time. */
export function dateBounds(term: Extract<Term, { type: 'filter' }>, now: Date): Array<{ operator: ComparisonOperator; at: string }> {
  const text = term.value.form === 'list' ? '' : term.value.text;
  if (term.negated || term.operator === '!=' || term.value.form !== 'plain') {
    throw invalid(`${term.key}: a date takes one value, compared with >, >=, < or <=; it cannot be negated.`);
  }
  const iso = (ms: number) => new Date(ms).toISOString();
  const relative = RELATIVE_DATE.exec(text);
  if (relative) {
    const at = now.getTime() - Number(relative[2]) * UNIT_MS[relative[3]];
    const operator = term.operator && term.operator !== '=' ? term.operator : relative[1] === '-' ? '>=' : '<=';
    return [{ operator, at: iso(at) }];
  }
  const absolute = absoluteDate(term.key, text);
  if (!absolute) throw invalidDate(term.key, text);
  if (term.operator && term.operator !== '=') return [{ operator: term.operator, at: iso(absolute.at) }];
  const [from, to] = absolute.wholeDay ? [absolute.at, absolute.at + UNIT_MS.d] : [absolute.at - FIVE_MINUTES, absolute.at + FIVE_MINUTES];
  return [
    { operator: '>=', at: iso(from) },
    { operator: '<', at: iso(to) },
  ];
}

const NUMBER = /^(\d{1,15})(?:\.(\d{0,6}))?([kmb])?$/;
const NUMBER_SUFFIX: Record<string, number> = { k: 1_000, m: 1_000_000, b: 1_000_000_000 };

/** `500`, `1.5k`, `2m`: a non-negative number as a decimal string. */
export function number(key: string, text: string): string {
  const match = NUMBER.exec(text);
  if (!match) throw invalid(`${key}: Invalid number: ${text}. Expected number then optional k, m, or b suffix (e.g. 500k).`);
  const value = Number(`${match[1]}.${match[2] || '0'}`) * (match[3] ? NUMBER_SUFFIX[match[3]] : 1);
  return String(value);
}

function numberFilter(column: 'times_seen' | 'user_count', term: Extract<Term, { type: 'filter' }>): IssueSearchFilter {
  if (term.value.form === 'quoted') throw invalid(`${term.key}: Invalid number: "${term.value.text}".`);
  const parsed = values(term.value).map((value) => number(term.key, value));
  let operator: ComparisonOperator = term.operator ?? '=';
  if (parsed.length > 1 && operator !== '=' && operator !== '!=') throw invalid(`${term.key}: a list compares only with = or !=.`);
  if (term.negated) operator = ({ '=': '!=', '!=': '=', '>': '<=', '>=': '<', '<': '>=', '<=': '>' } as const)[operator];
  return { kind: 'number', column, operator, values: parsed };
}

function releaseMatch(value: string): ReleaseMatch {
  return value === 'latest' ? { latest: true } : textMatch(value);
}

function isFilter(term: Extract<Term, { type: 'filter' }>): IssueSearchFilter {
  if (term.value.form === 'list') throw invalid('"in" syntax invalid for "is" search');
  const value = `${term.operator ?? ''}${term.value.text}`.toLowerCase();
  const negated = term.negated;
  if (Object.hasOwn(IS_STATUS, value)) return { kind: 'status', negated, status: IS_STATUS[value] };
  if (IS_SUBSTATUS.has(value)) return { kind: 'substatus', negated, substatus: value };
  if (value === 'assigned') return { kind: 'assigned', negated };
  if (value === 'unassigned') return { kind: 'assigned', negated: !negated };
  if (Object.hasOwn(IS_UNSUPPORTED, value)) throw invalid(`"is:${value}" is not supported: ${IS_UNSUPPORTED[value]}.`);
  throw invalid(`Invalid value for "is" search, valid values are [${IS_VALUES.map((entry) => `'${entry}'`).join(', ')}]`);
}

function assigneeTarget(value: string, context: IssueSearchContext): AssigneeTarget {
  const user = (): string => {
    if (!context.userId) throw invalid(`"${value}" needs a user token: an organization token has no user.`);
    return context.userId;
  };
  if (value === 'me') return { type: 'user', id: user() };
  if (value === 'my_teams') return { type: 'member_teams', userId: user() };
  if (value === 'none') return { type: 'none' };
  if (value.startsWith('#') && value.length > 1) return { type: 'team', slug: value.slice(1) };
  if (isNumericId(value)) return { type: 'user', id: value };
  return { type: 'email', email: value };
}

function bookmarkTarget(value: string, context: IssueSearchContext): BookmarkTarget {
  if (value === 'me') {
    if (!context.userId) throw invalid(`"bookmarks:me" needs a user token: an organization token has no user.`);
    return { type: 'user', id: context.userId };
  }
  return isNumericId(value) ? { type: 'user', id: value } : { type: 'email', email: value };
}

const BOOLEANS: Record<string, boolean> = { true: true, '1': true, false: false, '0': false };

/** Sentry's boolean values: `true`/`1`, `false`/`0`. */
export function booleanValue(key: string, texts: readonly string[]): boolean {
  const text = texts.length === 1 ? texts[0].toLowerCase() : '';
  if (!Object.hasOwn(BOOLEANS, text)) throw invalid(`${key}: Invalid boolean: ${texts.join(', ')}. Expected true, 1, false or 0.`);
  return BOOLEANS[text];
}

function unsupportedKey(key: string): string | undefined {
  if (Object.hasOwn(UNSUPPORTED_KEYS, key)) return UNSUPPORTED_KEYS[key];
  if (CONTEXT_TAG_KEYS.has(key)) return undefined;
  if (UNSUPPORTED_PREFIXES.some((prefix) => key.startsWith(prefix))) return `not kept for issues; search an SDK tag of that name as tags[${key}]:value`;
  return undefined;
}

/** Fields every issue has. */
const ALWAYS_SET = new Set(['first_seen', 'last_seen', 'times_seen', 'user_count', 'level', 'platform', 'message', 'issue', 'issue.id']);

function hasFilter(term: Extract<Term, { type: 'filter' }>): IssueSearchFilter {
  const key = term.value.form === 'list' ? '' : term.value.text;
  if (term.value.form !== 'plain' || term.operator || !/^[A-Za-z0-9_.:-]+$/.test(key)) {
    throw invalid('Invalid format for "has" search: was expecting a field or tag instead');
  }
  const negated = term.negated;
  const field = Object.hasOwn(KEY_ALIASES, key) ? KEY_ALIASES[key] : undefined;
  if (field === 'assigned') return { kind: 'has_column', column: 'assignee', negated };
  if (field === 'first_release') return { kind: 'has_column', column: 'first_release', negated };
  if (ALWAYS_SET.has(field ?? key)) return { kind: 'has_column', column: 'always', negated };
  if (Object.hasOwn(USER_FIELDS, key)) return { kind: 'user', field: USER_FIELDS[key as keyof typeof USER_FIELDS], negated, values: [] };
  const reason = unsupportedKey(key);
  if (reason) throw invalid(`Invalid key for this search: ${key} (${reason})`);
  return { kind: 'has_tag', key, negated };
}

/** A tag of the issue's events; `key:""` is Sentry's way of asking for issues without the tag. */
function tagFilter(key: string, term: Extract<Term, { type: 'filter' }>, match: (value: string) => ReleaseMatch): IssueSearchFilter {
  const { negated, values: texts } = textTerm(term);
  if (term.value.form === 'quoted' && term.value.text === '') return { kind: 'has_tag', key, negated: !negated };
  return { kind: 'tag', key, negated, values: texts.map(match) };
}

function fieldFilters(term: Extract<Term, { type: 'filter' }>, context: IssueSearchContext): IssueSearchFilter[] {
  if (term.explicitTag) return [tagFilter(term.key, term, textMatch)];
  if (term.key.includes('(')) throw invalid(`Invalid key for this search: ${term.key} (aggregates are searched in events, not issues)`);
  const field = (Object.hasOwn(KEY_ALIASES, term.key) ? KEY_ALIASES[term.key] : undefined) ?? term.key;
  switch (field) {
    case 'is':
      return [isFilter(term)];
    case 'has':
      return [hasFilter(term)];
    case 'first_seen':
    case 'last_seen':
      return dateFilters(field, term, context.now);
    case 'times_seen':
    case 'user_count':
      return [numberFilter(field, term)];
  }
  const { negated, values: texts } = textTerm(term);
  switch (field) {
    case 'assigned':
      return [{ kind: 'assignee', negated, targets: texts.map((value) => assigneeTarget(value, context)) }];
    case 'bookmarks':
      return [{ kind: 'bookmarked', negated, users: texts.map((value) => bookmarkTarget(value, context)) }];
    case 'level': {
      const levels = texts.map((level) => level.toLowerCase());
      for (const level of levels) {
        if (!LEVELS.has(level)) throw invalid(`Invalid value for "level" search: "${level}"; valid values are ${[...LEVELS].join(', ')}`);
      }
      return [{ kind: 'column', column: 'level', negated, values: levels.map((level) => ({ equals: level })) }];
    }
    case 'platform':
      return [{ kind: 'column', column: 'platform', negated, values: texts.map(textMatch) }];
    case 'first_release':
      return [{ kind: 'first_release', negated, values: texts.map(releaseMatch) }];
    case 'release':
      return [tagFilter('release', term, releaseMatch)];
    case 'message':
      return [messageFilter(texts, negated)];
    case 'issue.id':
      if (!texts.every((id) => isNumericId(id))) throw invalid(`issue.id: Invalid number: ${texts.join(', ')}.`);
      return [{ kind: 'issue_id', negated, ids: texts }];
    case 'issue':
      return [{ kind: 'short_id', negated, shortIds: texts }];
    case 'error.unhandled':
    case 'error.handled': {
      const unhandled = booleanValue(term.key, texts) === (field === 'error.unhandled');
      return [{ kind: 'unhandled', unhandled: negated ? !unhandled : unhandled }];
    }
    case 'user.id':
    case 'user.email':
    case 'user.username':
    case 'user.ip':
      return [{ kind: 'user', field: USER_FIELDS[field], negated, values: texts.map(textMatch) }];
  }
  const reason = unsupportedKey(term.key);
  if (reason) throw invalid(`Invalid key for this search: ${term.key} (${reason})`);
  return [tagFilter(term.key, term, textMatch)];
}

/**
 * Parses Sentry's issue search (see docs/issues-and-search.md): `is:`, `assigned:`, `bookmarks:`,
 * `level:`, `environment:`, `release:`, `firstRelease:`, `firstSeen:`/`lastSeen:`, `timesSeen:`,
 * `userCount:`, `has:`, `message:`, `issue:`/`issue.id:`, any other `key:value` as a tag, and
 * free text; `!` negates, `"…"` quotes, `[a, b]` lists and `*` is a wildcard. An absent query means
 * `is:unresolved`, as in Sentry; an empty one means every issue. A query it cannot answer is a
 * DomainError (400), never a silently empty answer.
 */
export function parseIssueSearch(query: string | undefined, context: IssueSearchContext): IssueSearch {
  const text = query ?? DEFAULT_ISSUE_QUERY;
  const filters: IssueSearchFilter[] = [];
  let phrase: string[] = [];
  const endPhrase = () => {
    if (phrase.length) filters.push(messageFilter([phrase.join(' ')], false));
    phrase = [];
  };
  for (const term of scanSearchQuery(text)) {
    if (term.type === 'text' && !term.quoted) {
      phrase.push(term.text);
      continue;
    }
    endPhrase();
    if (term.type === 'text') {
      if (term.text !== '') filters.push(messageFilter([term.text], false));
      continue;
    }
    filters.push(...fieldFilters(term, context));
  }
  endPhrase();
  const environments = context.environments?.filter((environment) => environment !== '') ?? [];
  if (environments.length)
    filters.push({ kind: 'tag', key: 'environment', negated: false, values: environments.map((environment) => ({ equals: environment })) });
  return { filters };
}
