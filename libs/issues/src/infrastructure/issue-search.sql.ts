import type { AssigneeTarget, BookmarkTarget, IssueSearch, IssueSearchFilter, ReleaseMatch } from '../application/queries/issue-search';
import { receivedSince, receivedSinceFirstSeen } from './event-time-bounds';

/** Where a search's SQL finds its inputs: the statement's parameter list and the organization's. */
export interface IssueSearchSqlContext {
  /** The statement's parameters; values are appended and named `$n`, never written into the SQL. */
  readonly params: unknown[];
  /** The searching organization: members and teams are looked up within it. */
  readonly organizationId: string;
  /** The projects' latest releases, for `release:latest` and `firstRelease:latest`. */
  readonly latestReleases: readonly string[];
  /** The stream's time range (ISO times, end exclusive): the event that holds an issue's event-level terms is one of it. */
  readonly range?: { readonly start: string; readonly end: string };
}

/** The rollup's column for each user field. */
const USER_COLUMNS = { id: 'user_ident', email: 'email', username: 'username', ip: 'ip_address' } as const;

const COMPARISONS = { '=': '=', '!=': '<>', '>': '>', '>=': '>=', '<': '<', '<=': '<=' } as const;

/** Whether a search names `latest` among its releases (it then needs the projects' latest releases). */
export function searchesLatestRelease(search: IssueSearch): boolean {
  return search.filters.some((filter) => (filter.kind === 'tag' || filter.kind === 'first_release') && filter.values.some((value) => 'latest' in value));
}

/**
 * The SQL conditions (over `issues i`) of an issue search, to be ANDed. Every value the user typed
 * is a parameter; the SQL text is made only of this file's own fragments. Subqueries reach the
 * issue's own rows (tag values) or the organization's members and teams, never another tenant's.
 */
export function issueSearchConditions(search: IssueSearch, context: IssueSearchSqlContext): string[] {
  const bind = (value: unknown, cast = 'text'): string => `$${context.params.push(value)}::${cast}`;
  const org = (): string => bind(context.organizationId, 'bigint');
  const negate = (negated: boolean, condition: string): string => (negated ? `NOT COALESCE(${condition}, false)` : condition);

  /** A text column (or tag value) matching any of the values: exactly, or by LIKE pattern. */
  const matches = (column: string, values: readonly ReleaseMatch[]): string => {
    const exact: string[] = [];
    const parts: string[] = [];
    for (const value of values) {
      if ('latest' in value) exact.push(...context.latestReleases);
      else if ('equals' in value) exact.push(value.equals);
      else parts.push(`${column} LIKE ${bind(value.like)} ESCAPE '\\'`);
    }
    if (exact.length || parts.length === 0) parts.unshift(`${column} = ANY(${bind(exact, 'text[]')})`);
    return parts.length === 1 ? parts[0] : `(${parts.join(' OR ')})`;
  };

  const assignee = (target: AssigneeTarget): string => {
    switch (target.type) {
      case 'none':
        return 'i.assignee IS NULL';
      case 'user':
        return `(i.assignee->>'type' = 'user' AND i.assignee->>'id' = ${bind(target.id)})`;
      case 'email':
        return `(i.assignee->>'type' = 'user' AND i.assignee->>'id' IN (
          SELECT m.user_id::text FROM identity.member_directory m
          WHERE m.organization_id = ${org()} AND lower(m.email) = lower(${bind(target.email)})))`;
      case 'team':
        return `(i.assignee->>'type' = 'team' AND i.assignee->>'id' IN (
          SELECT t.id::text FROM identity.team_directory t WHERE t.organization_id = ${org()} AND lower(t.slug) = lower(${bind(target.slug)})))`;
      case 'member_teams':
        return `(i.assignee->>'type' = 'team' AND i.assignee->>'id' IN (
          SELECT tm.team_id::text FROM identity.team_memberships tm JOIN identity.member_directory m ON m.id = tm.member_id
          WHERE m.organization_id = ${org()} AND m.user_id = ${bind(target.userId, 'bigint')}))`;
    }
  };

  const bookmarker = (target: BookmarkTarget): string =>
    target.type === 'user'
      ? `b.user_id = ${bind(target.id, 'bigint')}`
      : `b.user_id IN (SELECT m.user_id FROM identity.member_directory m
          WHERE m.organization_id = ${org()} AND lower(m.email) = lower(${bind(target.email)}))`;

  const condition = (filter: IssueSearchFilter): string => {
    switch (filter.kind) {
      case 'status':
        return negate(filter.negated, `i.status = ${bind(filter.status)}`);
      case 'substatus':
        return negate(filter.negated, `i.substatus = ${bind(filter.substatus)}`);
      case 'assigned':
        return filter.negated ? 'i.assignee IS NULL' : 'i.assignee IS NOT NULL';
      case 'assignee':
        return negate(filter.negated, `(${filter.targets.map(assignee).join(' OR ')})`);
      case 'bookmarked':
        return `${filter.negated ? 'NOT ' : ''}EXISTS (SELECT 1 FROM issues.issue_bookmarks b
          WHERE b.issue_id = i.id AND (${filter.users.map(bookmarker).join(' OR ')}))`;
      case 'column':
        return negate(filter.negated, matches(`i.${filter.column}`, filter.values));
      case 'first_release':
        return negate(filter.negated, matches('i.first_release', filter.values));
      case 'tag':
        return `${filter.negated ? 'NOT ' : ''}EXISTS (SELECT 1 FROM issues.issue_tag_values t
          WHERE t.issue_id = i.id AND t.key = ${bind(filter.key)} AND ${matches('t.value', filter.values)})`;
      case 'user': {
        const column = `u.${USER_COLUMNS[filter.field]}`;
        return `${filter.negated ? 'NOT ' : ''}EXISTS (SELECT 1 FROM issues.issue_users iu JOIN ingest.project_event_users u ON u.project_id = i.project_id AND u.hash = iu.user_hash
          WHERE iu.issue_id = i.id AND ${filter.values.length ? matches(column, filter.values) : `${column} IS NOT NULL`})`;
      }
      case 'has_tag':
        return `${filter.negated ? 'NOT ' : ''}EXISTS (SELECT 1 FROM issues.issue_tag_values t WHERE t.issue_id = i.id AND t.key = ${bind(filter.key)})`;
      case 'has_column':
        if (filter.column === 'always') return filter.negated ? 'false' : 'true';
        return `i.${filter.column} IS ${filter.negated ? '' : 'NOT '}NULL`;
      case 'message': {
        const any = filter.matches.map(({ like, text }) => {
          const pattern = bind(like);
          return `i.title ILIKE ${pattern} ESCAPE '\\' OR i.culprit ILIKE ${pattern} ESCAPE '\\' OR upper(i.short_id) = upper(${bind(text)})`;
        });
        return negate(filter.negated, `(${any.join(' OR ')})`);
      }
      case 'date':
        return `i.${filter.column} ${COMPARISONS[filter.operator]} ${bind(filter.at, 'timestamptz')}`;
      case 'number': {
        const column = `i.${filter.column}`;
        if (filter.values.length > 1) return `${filter.operator === '!=' ? 'NOT ' : ''}${column} = ANY(${bind(filter.values, 'numeric[]')})`;
        return `${column} ${COMPARISONS[filter.operator]} ${bind(filter.values[0], 'numeric')}`;
      }
      case 'unhandled':
        return filter.unhandled ? 'i.unhandled' : 'NOT i.unhandled';
      case 'issue_id':
        return negate(filter.negated, `i.id = ANY(${bind(filter.ids, 'bigint[]')})`);
      case 'short_id':
        return negate(
          filter.negated,
          `upper(i.short_id) = ANY(${bind(
            filter.shortIds.map((id) => id.toUpperCase()),
            'text[]',
          )})`,
        );
    }
  };

  /** What one event's `tags` (`key=value`) must hold for a filter that asks it of some event. */
  const eventCondition = (filter: IssueSearchFilter): string => {
    const prefix = (key: string) => `${key.replace(/[\\%_]/g, (char) => `\\${char}`)}=`;
    switch (filter.kind) {
      case 'tag': {
        const exact: string[] = [];
        const patterns: string[] = [];
        for (const value of filter.values) {
          if ('latest' in value) exact.push(...context.latestReleases.map((release) => `${filter.key}=${release}`));
          else if ('equals' in value) exact.push(`${filter.key}=${value.equals}`);
          else patterns.push(prefix(filter.key) + value.like);
        }
        const parts = patterns.map((pattern) => `EXISTS (SELECT 1 FROM unnest(e.tags) AS x(tag) WHERE x.tag LIKE ${bind(pattern)} ESCAPE '\\')`);
        if (exact.length || parts.length === 0) parts.unshift(`e.tags && ${bind(exact, 'text[]')}`);
        return parts.length === 1 ? parts[0] : `(${parts.join(' OR ')})`;
      }
      case 'has_tag':
        return `EXISTS (SELECT 1 FROM unnest(e.tags) AS x(tag) WHERE x.tag LIKE ${bind(`${prefix(filter.key)}%`)} ESCAPE '\\')`;
      case 'unhandled':
        return filter.unhandled ? 'e.unhandled' : 'NOT e.unhandled';
      default:
        throw new Error(`not an event-level filter: ${filter.kind}`);
    }
  };

  const conditions = search.filters.map(condition);
  // Sentry asks an issue's event-level terms of one event together: `environment:staging
  // release:1.1` is an issue with an event of both. The issue-level conditions above (each answered
  // by an index) keep the issues to look at few; their events are read by the issue's index.
  const eventLevel = search.filters.filter(
    (filter) => ((filter.kind === 'tag' || filter.kind === 'has_tag') && !filter.negated) || filter.kind === 'unhandled',
  );
  if (eventLevel.length > 1) {
    // Within the stream's range, as Sentry searches the period's events: only its days are read.
    const inRange = context.range
      ? ` AND e.occurred_at >= ${bind(context.range.start, 'timestamptz')} AND e.occurred_at < ${bind(context.range.end, 'timestamptz')}` +
        ` AND ${receivedSince('e', bind(context.range.start, 'timestamptz'))}`
      : '';
    conditions.push(
      `EXISTS (SELECT 1 FROM issues.error_events e WHERE e.issue_id = i.id AND ${receivedSinceFirstSeen('e', 'i')}${inRange} AND ${eventLevel.map(eventCondition).join(' AND ')})`,
    );
  }
  return conditions;
}
