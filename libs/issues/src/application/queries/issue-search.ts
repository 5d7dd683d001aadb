import { DomainError } from '@faultline/kernel';

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

/** What an issue search (`query=is:unresolved TypeError`) asks for. */
export interface IssueSearch {
  /** Any of these statuses (empty: any status). */
  readonly statuses: readonly string[];
  /** Any of these substatuses (empty: any). */
  readonly substatuses: readonly string[];
  /** true: only assigned issues; false: only unassigned ones. */
  readonly assigned?: boolean;
  /** Only issues assigned to this user. */
  readonly assignedToUser?: string;
  readonly levels: readonly string[];
  /** Matched against the title, the culprit and the short id. */
  readonly text?: string;
}

const IS_STATUS: Record<string, string> = {
  unresolved: 'unresolved',
  resolved: 'resolved',
  ignored: 'ignored',
  archived: 'ignored',
  muted: 'ignored',
};
const IS_SUBSTATUS = new Set(['new', 'ongoing', 'regressed', 'escalating', 'archived_forever', 'archived_until_condition_met']);
const IS_VALUES = [...Object.keys(IS_STATUS), ...IS_SUBSTATUS, 'assigned', 'unassigned'];
const LEVELS = new Set(['fatal', 'error', 'warning', 'info', 'debug']);
const SEARCH_KEYS = new Set(['is', 'level', 'assigned']);

export function parseIssueSort(sort: string | undefined): IssueSort {
  if (sort === undefined || sort === '') return 'date';
  if (!Object.hasOwn(ISSUE_SORTS, sort)) {
    throw DomainError.invalid(`Invalid sort: "${sort}"; use one of ${Object.keys(ISSUE_SORTS).join(', ')}`);
  }
  return sort as IssueSort;
}

/** Splits a search on blanks, keeping "quoted phrases" (quotes removed) together. */
function tokens(query: string): string[] {
  const found: string[] = [];
  const pattern = /(\S*?"[^"]*"\S*|\S+)/g;
  for (const match of query.matchAll(pattern)) found.push(match[0]);
  return found;
}

const unquote = (value: string): string => value.replace(/"/g, '');

/**
 * Parses Sentry's issue search: `is:` (status, substatus, assigned, unassigned), `level:`,
 * `assigned:me` and free text; other `key:value` tokens are read as text. An absent query means
 * `is:unresolved`, as in Sentry; an empty one means every issue.
 */
export function parseIssueSearch(query: string | undefined, currentUserId?: string): IssueSearch {
  const statuses = new Set<string>();
  const substatuses = new Set<string>();
  const levels = new Set<string>();
  const text: string[] = [];
  let assigned: boolean | undefined;
  let assignedToUser: string | undefined;

  for (const token of tokens(query ?? DEFAULT_ISSUE_QUERY)) {
    const match = /^([a-z_.]+):(.+)$/i.exec(token);
    const key = match?.[1].toLowerCase();
    if (!match || !key || !SEARCH_KEYS.has(key)) {
      text.push(unquote(token));
      continue;
    }
    const value = unquote(match[2]).toLowerCase();
    if (key === 'is') {
      if (IS_STATUS[value]) statuses.add(IS_STATUS[value]);
      else if (IS_SUBSTATUS.has(value)) substatuses.add(value);
      else if (value === 'assigned') assigned = true;
      else if (value === 'unassigned') assigned = false;
      else throw DomainError.invalid(`Invalid value for "is" search: "${value}"; valid values are ${IS_VALUES.join(', ')}`);
    } else if (key === 'level') {
      for (const level of value.split(',')) {
        if (!LEVELS.has(level)) throw DomainError.invalid(`Invalid value for "level" search: "${level}"`);
        levels.add(level);
      }
    } else if (value === 'me') {
      if (!currentUserId) throw DomainError.invalid('"assigned:me" needs a user token');
      assignedToUser = currentUserId;
    } else if (value === 'none' || value === '[]') {
      assigned = false;
    } else {
      throw DomainError.invalid(`Invalid value for "assigned" search: "${value}"; use me or none`);
    }
  }
  const phrase = text.join(' ').trim();
  return {
    statuses: [...statuses],
    substatuses: [...substatuses],
    assigned,
    assignedToUser,
    levels: [...levels],
    text: phrase || undefined,
  };
}
