import {
  AGE_UNITS,
  type EventAttribute,
  FREQUENCY_INTERVALS,
  type IssueRuleCondition,
  type IssueRuleDefinition,
  type IssueRuleFilter,
  IssueRuleIds,
  intervalSeconds,
  LEVEL_NUMBERS,
  MIN_SESSIONS_TO_FIRE,
  type MatchKind,
  type TagMatch,
} from './issue-rule';

/** What the evaluator knows about one processed event when it checks a rule. */
export interface EventFacts {
  readonly isNewIssue: boolean;
  readonly isRegression: boolean;
  /** The event brought the issue back from ignored (archived): Sentry's "reappeared". */
  readonly isReappeared: boolean;
  readonly level: string;
  readonly environment: string;
  /** The event's tags plus level, environment, release and user, as Sentry's TaggedEventFilter sees them. */
  readonly tags: ReadonlyArray<readonly [string, string]>;
  /** The attributes EventAttributeFilter compares; an empty or absent one is not set. */
  readonly attributes: Readonly<Partial<Record<EventAttribute, string>>>;
  /** Seconds since the issue was first seen; undefined when no rule needs it. */
  readonly issueAgeSeconds?: number;
  /** How often the issue has been seen, this event included; undefined when no rule needs it. */
  readonly issueTimesSeen?: number;
  /** The issue's assignee (null: nobody); undefined when no rule needs it. */
  readonly assignee?: { readonly type: 'user' | 'team'; readonly id: string } | null;
  /** Whether the event's release is its project's latest release; undefined when no rule needs it. */
  readonly isLatestRelease?: boolean;
  /**
   * Events of the issue in each interval (by its name, e.g. '1h'), this event included: in the
   * given environment only, or in all of them (null).
   */
  readonly eventsIn: (interval: string, environment: string | null) => number;
  /** Distinct users of the issue in each interval, in the environment or in all (null). */
  readonly usersIn: (interval: string, environment: string | null) => number;
  /** Sessions the project started in the last hour, in the environment or in all (null); undefined when not read. */
  readonly sessionsLastHour?: (environment: string | null) => number | undefined;
}

function matches(kind: MatchKind, results: readonly boolean[]): boolean {
  switch (kind) {
    case 'all':
      return results.every(Boolean);
    case 'any':
      return results.some(Boolean);
    case 'none':
      return !results.some(Boolean);
  }
}

/** Whether a condition passes; frequency counts are the rule's environment's (null: all environments). */
export function conditionPasses(condition: IssueRuleCondition, facts: EventFacts, environment: string | null = null): boolean {
  switch (condition.id) {
    case IssueRuleIds.FirstSeenEvent:
      return facts.isNewIssue;
    case IssueRuleIds.RegressionEvent:
      return facts.isRegression;
    case IssueRuleIds.ReappearedEvent:
      return facts.isReappeared;
    case IssueRuleIds.EveryEvent:
      return true;
    case IssueRuleIds.EventFrequency:
      return facts.eventsIn(condition.interval, environment) > condition.value;
    case IssueRuleIds.EventUniqueUserFrequency:
      return facts.usersIn(condition.interval, environment) > condition.value;
    case IssueRuleIds.EventFrequencyPercent: {
      const percent = percentOfSessions(facts.eventsIn(condition.interval, environment), facts.sessionsLastHour?.(environment), condition.interval);
      return percent > condition.value;
    }
  }
}

/**
 * Sentry's percent of sessions affected: the issue's events in the interval against the sessions
 * an interval of the last hour holds on average; 0 while the last hour had fewer than
 * MIN_SESSIONS_TO_FIRE sessions (too few for a percentage to mean anything).
 */
export function percentOfSessions(events: number, sessionsLastHour: number | undefined, interval: string): number {
  if (sessionsLastHour === undefined || sessionsLastHour < MIN_SESSIONS_TO_FIRE) return 0;
  const sessionsInInterval = sessionsLastHour / (3600 / intervalSeconds(interval));
  return 100 * (Math.round((events / sessionsInInterval) * 10_000) / 10_000);
}

export function filterPasses(filter: IssueRuleFilter, facts: EventFacts): boolean {
  switch (filter.id) {
    case IssueRuleIds.LevelFilter: {
      const level = LEVEL_NUMBERS[facts.level];
      if (level === undefined) return false;
      const wanted = Number(filter.level);
      return filter.match === 'eq' ? level === wanted : filter.match === 'gte' ? level >= wanted : level <= wanted;
    }
    case IssueRuleIds.TaggedEventFilter: {
      const key = filter.key.toLowerCase();
      return valuesMatch(
        filter,
        facts.tags.filter(([k]) => k.toLowerCase() === key).map(([, v]) => v),
      );
    }
    case IssueRuleIds.EventAttributeFilter: {
      const value = facts.attributes[filter.attribute];
      return valuesMatch(filter, value ? [value] : []);
    }
    case IssueRuleIds.AgeComparisonFilter: {
      if (facts.issueAgeSeconds === undefined) return false;
      const limit = filter.value * AGE_UNITS[filter.time];
      return filter.comparison_type === 'older' ? facts.issueAgeSeconds > limit : facts.issueAgeSeconds < limit;
    }
    case IssueRuleIds.IssueOccurrencesFilter:
      return facts.issueTimesSeen !== undefined && facts.issueTimesSeen >= filter.value;
    case IssueRuleIds.AssignedToFilter: {
      if (facts.assignee === undefined) return false;
      if (filter.targetType === 'Unassigned') return facts.assignee === null;
      const wanted = filter.targetType === 'Team' ? 'team' : 'user';
      return facts.assignee !== null && facts.assignee.type === wanted && facts.assignee.id === filter.targetIdentifier;
    }
    case IssueRuleIds.LatestReleaseFilter:
      return facts.isLatestRelease === true;
  }
}

/** Sentry's match kinds over an event's values of one tag or attribute, without regard to case. */
function valuesMatch(filter: { match: TagMatch; value?: string }, found: readonly string[]): boolean {
  const values = found.map((v) => v.toLowerCase());
  const wanted = (filter.value ?? '').toLowerCase();
  switch (filter.match) {
    case 'is':
      return values.length > 0;
    case 'ns':
      return values.length === 0;
    case 'eq':
      return values.includes(wanted);
    case 'ne':
      return !values.includes(wanted);
    case 'sw':
      return values.some((v) => v.startsWith(wanted));
    case 'ew':
      return values.some((v) => v.endsWith(wanted));
    case 'co':
      return values.some((v) => v.includes(wanted));
    case 'nc':
      return !values.some((v) => v.includes(wanted));
  }
}

/**
 * Whether a rule's conditions and filters pass for an event (Sentry's rule processor): the
 * environment first, then `actionMatch` over the conditions and `filterMatch` over the filters
 * (an empty list is no restriction). The action interval is the caller's: it needs durable state.
 */
export function rulePasses(rule: IssueRuleDefinition, facts: EventFacts): boolean {
  if (rule.environment !== null && rule.environment !== facts.environment) return false;
  if (
    rule.conditions.length > 0 &&
    !matches(
      rule.actionMatch,
      rule.conditions.map((c) => conditionPasses(c, facts, rule.environment)),
    )
  )
    return false;
  if (
    rule.filters.length > 0 &&
    !matches(
      rule.filterMatch,
      rule.filters.map((f) => filterPasses(f, facts)),
    )
  )
    return false;
  return true;
}

/** What the evaluator must keep and read for a set of rules, so a project without them costs nothing. */
export interface RuleNeeds {
  eventCounts: boolean;
  userCounts: boolean;
  issueAge: boolean;
  /** The issue's times seen and assignee (one read with its age). */
  issueState: boolean;
  sessions: boolean;
  latestRelease: boolean;
  /** The windows (in seconds) of the event and of the user frequency conditions. */
  eventWindows: number[];
  userWindows: number[];
}

export function needsOf(rules: readonly IssueRuleDefinition[]): RuleNeeds {
  const eventWindows = new Set<number>();
  const userWindows = new Set<number>();
  let issueAge = false;
  let issueState = false;
  let sessions = false;
  let latestRelease = false;
  for (const rule of rules) {
    for (const condition of rule.conditions) {
      if (condition.id === IssueRuleIds.EventFrequency) eventWindows.add(FREQUENCY_INTERVALS[condition.interval]);
      if (condition.id === IssueRuleIds.EventUniqueUserFrequency) userWindows.add(FREQUENCY_INTERVALS[condition.interval]);
      if (condition.id === IssueRuleIds.EventFrequencyPercent) {
        eventWindows.add(intervalSeconds(condition.interval));
        sessions = true;
      }
    }
    for (const filter of rule.filters) {
      if (filter.id === IssueRuleIds.AgeComparisonFilter) issueAge = true;
      if (filter.id === IssueRuleIds.IssueOccurrencesFilter || filter.id === IssueRuleIds.AssignedToFilter) issueState = true;
      if (filter.id === IssueRuleIds.LatestReleaseFilter) latestRelease = true;
    }
  }
  return {
    eventCounts: eventWindows.size > 0,
    userCounts: userWindows.size > 0,
    issueAge,
    issueState,
    sessions,
    latestRelease,
    eventWindows: [...eventWindows],
    userWindows: [...userWindows],
  };
}
