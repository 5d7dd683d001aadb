import { Injectable } from '@nestjs/common';
import { LikePattern } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import {
  type EventAggregate,
  type EventField,
  type EventFieldName,
  EVENT_FIELDS,
  type EventFilter,
  type EventSearch,
} from '../application/queries/event-search';
import { RECEIVED_AFTER_OCCURRED, RECEIVED_BEFORE_OCCURRED } from './event-time-bounds';

/** Which events a search reads: the projects (already known to be the organization's) and the time range. */
export interface EventSearchScope {
  readonly projectIds: readonly string[];
  /** Only this issue's events. */
  readonly issueId?: string;
  readonly start: string;
  readonly end: string;
  readonly environments: readonly string[];
  /** `project:` filters are matched against these slugs. */
  readonly projectSlugs: ReadonlyMap<string, string>;
  readonly offset: number;
  readonly limit: number;
}

const USER = `e.data->'user'`;
const USER_IP = `COALESCE(${USER}->>'ipAddress', ${USER}->>'ip_address')`;

/** Each field's SQL over `error_events e`; the issue's short id is read once per row or group. */
const FIELD_SQL: Record<EventFieldName, string> = {
  id: 'e.event_id',
  title: `e.data->>'title'`,
  message: `COALESCE(NULLIF(e.data->>'message', ''), e.data->>'title')`,
  issue: '(SELECT i.short_id FROM issues.issues i WHERE i.id = e.issue_id)',
  'issue.id': 'e.issue_id',
  project: 'e.project_id',
  'project.id': 'e.project_id',
  'project.name': 'e.project_id',
  timestamp: 'e.occurred_at',
  level: `e.data->>'level'`,
  release: `e.data->>'release'`,
  environment: `e.data->>'environment'`,
  dist: `e.data->>'dist'`,
  user: `COALESCE('id:' || (${USER}->>'id'), 'username:' || (${USER}->>'username'), 'email:' || (${USER}->>'email'), 'ip:' || ${USER_IP})`,
  'user.id': `${USER}->>'id'`,
  'user.email': `${USER}->>'email'`,
  'user.username': `${USER}->>'username'`,
  'user.ip': USER_IP,
  'user.display': `COALESCE(${USER}->>'email', ${USER}->>'username', ${USER}->>'id', ${USER_IP})`,
  culprit: `e.data->>'culprit'`,
  transaction: `e.data->>'transaction'`,
  platform: `e.data->>'platform'`,
  'error.type': `ARRAY(SELECT x.exception->>'type' FROM json_array_elements(CASE WHEN json_typeof(e.data->'exceptions') = 'array' THEN e.data->'exceptions' END) AS x(exception))`,
  'error.value': `ARRAY(SELECT x.exception->>'value' FROM json_array_elements(CASE WHEN json_typeof(e.data->'exceptions') = 'array' THEN e.data->'exceptions' END) AS x(exception))`,
  'error.unhandled': 'e.unhandled',
  'error.handled': '(NOT e.unhandled)',
};

/** Fields whose SQL is a numeric id. */
const NUMERIC_SQL = new Set<EventFieldName>(['project', 'project.id', 'project.name', 'issue.id']);

/** What a field is grouped by: the issue by its id (its short id is read per group, not per event). */
const GROUP_SQL: Partial<Record<EventFieldName, string>> = { issue: 'e.issue_id' };

const COMPARISONS = { '=': '=', '!=': '<>', '>': '>', '>=': '>=', '<': '<', '<=': '<=' } as const;

export interface EventSearchStatement {
  readonly text: string;
  readonly params: unknown[];
}

/**
 * The SQL of an event search over the scope's projects and time range. Every value the user typed
 * is a parameter; the SQL text is made only of this file's fragments.
 */
export function eventSearchStatement(search: EventSearch, scope: EventSearchScope): EventSearchStatement {
  const params: unknown[] = [];
  const bind = (value: unknown, cast = 'text'): string => `$${params.push(value)}::${cast}`;

  const fieldSql = (field: EventField): string => {
    if (field.kind === 'field') return FIELD_SQL[field.name];
    // The event's tags as its issue counts them (`key=value`): the SDK's first, then those derived from its fields.
    const prefix = `${field.key}=`;
    return `(SELECT substr(t.tag, ${prefix.length + 1}) FROM unnest(e.tags) WITH ORDINALITY AS t(tag, n) WHERE starts_with(t.tag, ${bind(prefix)}) ORDER BY t.n LIMIT 1)`;
  };
  /** The field as text: projects and issues are kept by their numeric ids. */
  const textSql = (field: EventField): string => (field.kind === 'field' && NUMERIC_SQL.has(field.name) ? `${fieldSql(field)}::text` : fieldSql(field));
  const isArray = (field: EventField) => field.kind === 'field' && (field.name === 'error.type' || field.name === 'error.value');

  const aggregateSql = (aggregate: EventAggregate): string => {
    switch (aggregate.fn) {
      case 'count':
        return 'count(*)';
      case 'count_unique':
        return `count(DISTINCT ${(aggregate.of.kind === 'field' && GROUP_SQL[aggregate.of.name]) || fieldSql(aggregate.of)})`;
      case 'last_seen':
        return 'max(e.occurred_at)';
      case 'first_seen':
        return 'min(e.occurred_at)';
    }
  };

  const condition = (filter: EventFilter): { where?: string; having?: string } => {
    const negate = (negated: boolean, sql: string) => (negated ? `NOT COALESCE(${sql}, false)` : sql);
    switch (filter.kind) {
      case 'text':
        return {
          where: negate(
            filter.negated,
            `(e.data->>'title' ILIKE ${bind(filter.like)} ESCAPE '\\' OR e.data->>'message' ILIKE ${bind(filter.like)} ESCAPE '\\')`,
          ),
        };
      case 'has': {
        const type = filter.field.kind === 'field' ? EVENT_FIELDS[filter.field.name] : 'string';
        const sql =
          type === 'array'
            ? `cardinality(${fieldSql(filter.field)}) > 0`
            : type === 'string'
              ? `(${textSql(filter.field)}) <> ''`
              : `${fieldSql(filter.field)} IS NOT NULL`;
        return { where: negate(filter.negated, sql) };
      }
      case 'match': {
        if (filter.field.kind === 'field' && (filter.field.name === 'project' || filter.field.name === 'project.name')) {
          const matchers = filter.values.map((value) => ('equals' in value ? (slug: string) => slug === value.equals : likeMatcher(value.like)));
          const ids = [...scope.projectSlugs].filter(([, slug]) => matchers.some((matches) => matches(slug))).map(([id]) => id);
          return { where: negate(filter.negated, `e.project_id = ANY(${bind(ids, 'bigint[]')})`) };
        }
        const one = (value: string) =>
          isArray(filter.field)
            ? `EXISTS (SELECT 1 FROM unnest(${fieldSql(filter.field)}) AS v(item) WHERE v.item ${value})`
            : `${textSql(filter.field)} ${value}`;
        const exact = filter.values.flatMap((value) => ('equals' in value ? [value.equals] : []));
        const parts = filter.values.flatMap((value) => ('like' in value ? [one(`LIKE ${bind(value.like)} ESCAPE '\\'`)] : []));
        if (exact.length) parts.unshift(one(`= ANY(${bind(exact, 'text[]')})`));
        return { where: negate(filter.negated, parts.length === 1 ? parts[0] : `(${parts.join(' OR ')})`) };
      }
      case 'flag':
        return { where: filter.value ? fieldSql(filter.field) : `NOT ${fieldSql(filter.field)}` };
      case 'compare': {
        const type = filter.field.kind === 'field' && filter.field.name === 'timestamp' ? 'timestamptz' : 'numeric';
        return { where: `${fieldSql(filter.field)} ${COMPARISONS[filter.operator]} ${bind(filter.value, type)}` };
      }
      case 'having': {
        const type = filter.aggregate.fn === 'count' || filter.aggregate.fn === 'count_unique' ? 'numeric' : 'timestamptz';
        return { having: `${aggregateSql(filter.aggregate)} ${COMPARISONS[filter.operator]} ${bind(filter.value, type)}` };
      }
    }
  };

  // The projects and time range come first: they are what the (project_id, occurred_at) index answers.
  const where = [
    scope.projectIds.length === 1 ? `e.project_id = ${bind(scope.projectIds[0], 'bigint')}` : `e.project_id = ANY(${bind(scope.projectIds, 'bigint[]')})`,
    `e.occurred_at >= ${bind(scope.start, 'timestamptz')}`,
    `e.occurred_at < ${bind(scope.end, 'timestamptz')}`,
    // The days that can hold events of the period (see event-time-bounds.ts): the others are not read.
    `e.received_at >= ${bind(scope.start, 'timestamptz')} - ${RECEIVED_BEFORE_OCCURRED}`,
    `e.received_at < ${bind(scope.end, 'timestamptz')} + ${RECEIVED_AFTER_OCCURRED}`,
  ];
  if (scope.issueId) where.push(`e.issue_id = ${bind(scope.issueId, 'bigint')}`);
  if (scope.environments.length) where.push(`${FIELD_SQL.environment} = ANY(${bind(scope.environments, 'text[]')})`);
  const having: string[] = [];
  for (const filter of search.filters) {
    const part = condition(filter);
    if (part.where) where.push(part.where);
    if (part.having) having.push(part.having);
  }

  const groups: string[] = [];
  const select = search.columns.map((column, index) => {
    if (column.kind === 'aggregate') return `${aggregateSql(column.aggregate)} AS c${index}`;
    if (search.grouped) {
      const group = column.field.kind === 'field' && GROUP_SQL[column.field.name] ? (GROUP_SQL[column.field.name] as string) : fieldSql(column.field);
      groups.push(group);
      if (column.field.kind === 'field' && GROUP_SQL[column.field.name]) return `${FIELD_SQL[column.field.name]} AS c${index}`;
      return `${group} AS c${index}`;
    }
    return `${fieldSql(column.field)} AS c${index}`;
  });
  const order = search.orderBy.map(({ column, descending }) => `c${search.columns.indexOf(column)} ${descending ? 'DESC' : 'ASC'}`);
  // A stable order, so that pages do not overlap.
  if (!search.grouped) order.push('e.occurred_at DESC', 'e.id DESC');
  else order.push(...groups.map((_, index) => `${index + 1 + search.columns.length}`));
  const tiebreak = search.grouped ? groups.map((group, index) => `${group} AS g${index}`) : [];
  const text = `SELECT ${[...select, ...tiebreak].join(', ')} FROM issues.error_events e
    WHERE ${where.join(' AND ')}
    ${search.grouped && groups.length ? `GROUP BY ${groups.join(', ')}` : ''}
    ${having.length ? `HAVING ${having.join(' AND ')}` : ''}
    ${order.length ? `ORDER BY ${order.join(', ')}` : ''}
    OFFSET ${bind(scope.offset, 'int')} LIMIT ${bind(scope.limit, 'int')}`;
  return { text, params };
}

/** A LIKE pattern matched against project slugs in memory, in time linear in the slug whatever the pattern. */
function likeMatcher(like: string): (slug: string) => boolean {
  const pattern = new LikePattern(like);
  return (slug) => pattern.matches(slug);
}

/** Runs event searches; rows come back with columns `c0…` in the search's column order. */
@Injectable()
export class EventSearchReader {
  constructor(private readonly database: Database) {}

  async search(search: EventSearch, scope: EventSearchScope): Promise<Array<Record<string, unknown>>> {
    if (scope.projectIds.length === 0) return [];
    const statement = eventSearchStatement(search, scope);
    return this.database.query<Record<string, unknown>>(statement.text, statement.params);
  }
}
