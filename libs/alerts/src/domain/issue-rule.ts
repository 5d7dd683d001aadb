/**
 * Issue alert rules as Sentry's API writes them: conditions, filters and actions named by Sentry's
 * ids, `actionMatch` over the conditions and `filterMatch` over the filters, and a frequency (the
 * minimum minutes between two fires of the rule for one issue).
 */
export const IssueRuleIds = {
  FirstSeenEvent: 'sentry.rules.conditions.first_seen_event.FirstSeenEventCondition',
  RegressionEvent: 'sentry.rules.conditions.regression_event.RegressionEventCondition',
  EveryEvent: 'sentry.rules.conditions.every_event.EveryEventCondition',
  EventFrequency: 'sentry.rules.conditions.event_frequency.EventFrequencyCondition',
  EventUniqueUserFrequency: 'sentry.rules.conditions.event_frequency.EventUniqueUserFrequencyCondition',
  LevelFilter: 'sentry.rules.filters.level.LevelFilter',
  TaggedEventFilter: 'sentry.rules.filters.tagged_event.TaggedEventFilter',
  AgeComparisonFilter: 'sentry.rules.filters.age_comparison.AgeComparisonFilter',
  NotifyEvent: 'sentry.rules.actions.notify_event.NotifyEventAction',
  NotifyEventSentryApp: 'sentry.rules.actions.notify_event_sentry_app.NotifyEventSentryAppAction',
  NotifyEmail: 'sentry.mail.actions.NotifyEmailAction',
  /** Chat by incoming-webhook URL (`webhookUrl`): Sentry's chat actions need an OAuth integration, these do not. */
  NotifySlackWebhook: 'faultline.rules.actions.notify_chat.SlackWebhookAction',
  NotifyDiscordWebhook: 'faultline.rules.actions.notify_chat.DiscordWebhookAction',
  NotifyMsTeamsWebhook: 'faultline.rules.actions.notify_chat.MsTeamsWebhookAction',
  NotifyMattermostWebhook: 'faultline.rules.actions.notify_chat.MattermostWebhookAction',
} as const;

/** The chat service each chat action posts to, in that service's message format. */
export const CHAT_ACTION_SERVICES = {
  [IssueRuleIds.NotifySlackWebhook]: 'slack',
  [IssueRuleIds.NotifyDiscordWebhook]: 'discord',
  [IssueRuleIds.NotifyMsTeamsWebhook]: 'msteams',
  [IssueRuleIds.NotifyMattermostWebhook]: 'mattermost',
} as const;
export type ChatActionId = keyof typeof CHAT_ACTION_SERVICES;
const isChatAction = (id: string): id is ChatActionId => id in CHAT_ACTION_SERVICES;

export const MAIL_TARGET_TYPES = ['IssueOwners', 'Team', 'Member'] as const;
export const MAIL_FALLTHROUGH_TYPES = ['ActiveMembers', 'AllMembers', 'NoOne'] as const;

export type MatchKind = 'all' | 'any' | 'none';
const MATCH_KINDS: readonly MatchKind[] = ['all', 'any', 'none'];

/** Sentry's frequency intervals and their length in seconds. */
export const FREQUENCY_INTERVALS: Readonly<Record<string, number>> = Object.freeze({
  '1m': 60,
  '5m': 300,
  '15m': 900,
  '1h': 3600,
  '1d': 86_400,
  '1w': 604_800,
  '30d': 2_592_000,
});

/** Sentry's numeric levels (LevelFilter compares them). */
export const LEVEL_NUMBERS: Readonly<Record<string, number>> = Object.freeze({ fatal: 50, error: 40, warning: 30, info: 20, debug: 10, sample: 0 });

const TAG_MATCHES = ['eq', 'ne', 'sw', 'ew', 'co', 'nc', 'is', 'ns'] as const;
type TagMatch = (typeof TAG_MATCHES)[number];
const AGE_UNITS: Readonly<Record<string, number>> = Object.freeze({ minute: 60, hour: 3600, day: 86_400, week: 604_800 });

export type IssueRuleCondition =
  | { id: typeof IssueRuleIds.FirstSeenEvent }
  | { id: typeof IssueRuleIds.RegressionEvent }
  | { id: typeof IssueRuleIds.EveryEvent }
  | { id: typeof IssueRuleIds.EventFrequency | typeof IssueRuleIds.EventUniqueUserFrequency; value: number; interval: string; comparisonType: 'count' };

export type IssueRuleFilter =
  | { id: typeof IssueRuleIds.LevelFilter; match: 'eq' | 'gte' | 'lte'; level: string }
  | { id: typeof IssueRuleIds.TaggedEventFilter; key: string; match: TagMatch; value?: string }
  | { id: typeof IssueRuleIds.AgeComparisonFilter; comparison_type: 'older' | 'newer'; value: number; time: string };

export interface AppActionSetting {
  name: string;
  value: unknown;
}

export type IssueRuleAction =
  | { id: typeof IssueRuleIds.NotifyEvent; uuid: string }
  | {
      id: typeof IssueRuleIds.NotifyEventSentryApp;
      uuid: string;
      sentryAppInstallationUuid: string;
      settings: AppActionSetting[];
      hasSchemaFormConfig?: boolean;
    }
  | {
      id: typeof IssueRuleIds.NotifyEmail;
      uuid: string;
      targetType: (typeof MAIL_TARGET_TYPES)[number];
      targetIdentifier: string | null;
      fallthroughType: (typeof MAIL_FALLTHROUGH_TYPES)[number];
    }
  | { id: ChatActionId; uuid: string; webhookUrl: string };

/** A rule's definition, validated and normalised. */
export interface IssueRuleDefinition {
  name: string;
  environment: string | null;
  actionMatch: MatchKind;
  filterMatch: MatchKind;
  frequency: number;
  conditions: IssueRuleCondition[];
  filters: IssueRuleFilter[];
  actions: IssueRuleAction[];
  owner: string | null;
}

/** A stored rule, as the evaluator uses it. */
export interface IssueRule extends IssueRuleDefinition {
  id: string;
  projectId: string;
}

export const DEFAULT_FREQUENCY_MINUTES = 30;
export const MIN_FREQUENCY_MINUTES = 5;
export const MAX_FREQUENCY_MINUTES = 43_200;

export type Invalid = { error: string; field: string };
type Checked<T> = { ok: T } | Invalid;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

function integerOf(value: unknown): number | undefined {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) ? number : undefined;
}

/**
 * Validates a rule as Sentry's API receives it (create, or a full update). `newUuid` names
 * actions that arrive without a `uuid` (Sentry gives every action one).
 */
export function validateIssueRule(input: Record<string, unknown>, newUuid: () => string): Checked<IssueRuleDefinition> {
  const name = input.name;
  if (typeof name !== 'string' || name.trim() === '') return { error: 'name: This field is required.', field: 'name' };
  if (name.length > 256) return { error: 'name: Ensure this field has no more than 256 characters.', field: 'name' };
  const actionMatch = input.actionMatch;
  if (!MATCH_KINDS.includes(actionMatch as MatchKind)) return { error: 'actionMatch: must be one of all, any, none', field: 'actionMatch' };
  const filterMatch = input.filterMatch ?? 'all';
  if (!MATCH_KINDS.includes(filterMatch as MatchKind)) return { error: 'filterMatch: must be one of all, any, none', field: 'filterMatch' };
  const frequency = input.frequency === undefined || input.frequency === null ? DEFAULT_FREQUENCY_MINUTES : integerOf(input.frequency);
  if (frequency === undefined || frequency < MIN_FREQUENCY_MINUTES || frequency > MAX_FREQUENCY_MINUTES) {
    return { error: `frequency: must be a whole number of minutes from ${MIN_FREQUENCY_MINUTES} to ${MAX_FREQUENCY_MINUTES}`, field: 'frequency' };
  }
  const environment = input.environment ?? null;
  if (environment !== null && (typeof environment !== 'string' || environment.length > 64))
    return { error: 'environment: must be a string of at most 64 characters', field: 'environment' };
  const owner = input.owner ?? null;
  if (owner !== null && (typeof owner !== 'string' || !/^(user|team):\d+$/.test(owner)))
    return { error: 'owner: must be "user:<id>" or "team:<id>"', field: 'owner' };

  const conditions = listOf(input.conditions ?? [], 'conditions', validateCondition);
  if ('error' in conditions) return conditions;
  const filters = listOf(input.filters ?? [], 'filters', validateFilter);
  if ('error' in filters) return filters;
  const actions = listOf(input.actions, 'actions', (raw, index) => validateAction(raw, index, newUuid));
  if ('error' in actions) return actions;
  if (actions.ok.length === 0) return { error: 'actions: You must add an action for this alert to fire.', field: 'actions' };
  return {
    ok: {
      name: name.trim(),
      environment: environment as string | null,
      actionMatch: actionMatch as MatchKind,
      filterMatch: filterMatch as MatchKind,
      frequency,
      conditions: conditions.ok,
      filters: filters.ok,
      actions: actions.ok,
      owner: owner as string | null,
    },
  };
}

function listOf<T>(raw: unknown, field: string, check: (item: unknown, index: number) => Checked<T>): Checked<T[]> {
  if (!Array.isArray(raw)) return { error: `${field}: must be a list`, field };
  if (raw.length > 50) return { error: `${field}: at most 50 items`, field };
  const out: T[] = [];
  for (const [index, item] of raw.entries()) {
    const checked = check(item, index);
    if ('error' in checked) return checked;
    out.push(checked.ok);
  }
  return { ok: out };
}

function validateCondition(raw: unknown, index: number): Checked<IssueRuleCondition> {
  const field = 'conditions';
  if (!isRecord(raw) || typeof raw.id !== 'string') return { error: `conditions[${index}]: must be an object with an id`, field };
  switch (raw.id) {
    case IssueRuleIds.FirstSeenEvent:
    case IssueRuleIds.RegressionEvent:
    case IssueRuleIds.EveryEvent:
      return { ok: { id: raw.id } };
    case IssueRuleIds.EventFrequency:
    case IssueRuleIds.EventUniqueUserFrequency: {
      const value = integerOf(raw.value);
      if (value === undefined || value < 0) return { error: `conditions[${index}]: value must be a whole number of at least 0`, field };
      const interval = raw.interval;
      if (typeof interval !== 'string' || !(interval in FREQUENCY_INTERVALS)) {
        return { error: `conditions[${index}]: interval must be one of ${Object.keys(FREQUENCY_INTERVALS).join(', ')}`, field };
      }
      const comparisonType = raw.comparisonType ?? 'count';
      if (comparisonType !== 'count') return { error: `conditions[${index}]: only comparisonType "count" is supported`, field };
      return { ok: { id: raw.id, value, interval, comparisonType } };
    }
    default:
      return { error: `conditions[${index}]: unknown condition ${raw.id}`, field };
  }
}

function validateFilter(raw: unknown, index: number): Checked<IssueRuleFilter> {
  const field = 'filters';
  if (!isRecord(raw) || typeof raw.id !== 'string') return { error: `filters[${index}]: must be an object with an id`, field };
  switch (raw.id) {
    case IssueRuleIds.LevelFilter: {
      const match = raw.match;
      if (match !== 'eq' && match !== 'gte' && match !== 'lte') return { error: `filters[${index}]: match must be one of eq, gte, lte`, field };
      const level = integerOf(raw.level);
      if (level === undefined || !Object.values(LEVEL_NUMBERS).includes(level)) {
        return { error: `filters[${index}]: level must be one of ${Object.values(LEVEL_NUMBERS).join(', ')}`, field };
      }
      return { ok: { id: raw.id, match, level: String(level) } };
    }
    case IssueRuleIds.TaggedEventFilter: {
      if (typeof raw.key !== 'string' || raw.key.trim() === '' || raw.key.length > 200) return { error: `filters[${index}]: key is required`, field };
      const match = raw.match;
      if (!TAG_MATCHES.includes(match as TagMatch)) return { error: `filters[${index}]: match must be one of ${TAG_MATCHES.join(', ')}`, field };
      if (match === 'is' || match === 'ns') return { ok: { id: raw.id, key: raw.key.trim(), match } };
      if (typeof raw.value !== 'string' || raw.value.length > 200) return { error: `filters[${index}]: value is required`, field };
      return { ok: { id: raw.id, key: raw.key.trim(), match: match as TagMatch, value: raw.value } };
    }
    case IssueRuleIds.AgeComparisonFilter: {
      const comparison = raw.comparison_type;
      if (comparison !== 'older' && comparison !== 'newer') return { error: `filters[${index}]: comparison_type must be older or newer`, field };
      const value = integerOf(raw.value);
      if (value === undefined || value < 0) return { error: `filters[${index}]: value must be a whole number of at least 0`, field };
      if (typeof raw.time !== 'string' || !(raw.time in AGE_UNITS))
        return { error: `filters[${index}]: time must be one of ${Object.keys(AGE_UNITS).join(', ')}`, field };
      return { ok: { id: raw.id, comparison_type: comparison, value, time: raw.time } };
    }
    default:
      return { error: `filters[${index}]: unknown filter ${raw.id}`, field };
  }
}

function validateAction(raw: unknown, index: number, newUuid: () => string): Checked<IssueRuleAction> {
  const field = 'actions';
  if (!isRecord(raw) || typeof raw.id !== 'string') return { error: `actions[${index}]: must be an object with an id`, field };
  const uuid = typeof raw.uuid === 'string' && UUID.test(raw.uuid) ? raw.uuid : newUuid();
  switch (raw.id) {
    case IssueRuleIds.NotifyEvent:
      return { ok: { id: raw.id, uuid } };
    case IssueRuleIds.NotifyEventSentryApp: {
      const installation = raw.sentryAppInstallationUuid;
      if (typeof installation !== 'string' || !UUID.test(installation)) return { error: `actions[${index}]: sentryAppInstallationUuid must be a UUID`, field };
      const settings = raw.settings ?? [];
      if (!Array.isArray(settings) || settings.length > 50 || !settings.every((s) => isRecord(s) && typeof s.name === 'string' && s.name !== '')) {
        return { error: `actions[${index}]: settings must be a list of {"name", "value"}`, field };
      }
      return {
        ok: {
          id: raw.id,
          uuid,
          sentryAppInstallationUuid: installation.toLowerCase(),
          settings: (settings as Array<Record<string, unknown>>).map((s) => ({ name: s.name as string, value: s.value ?? null })),
          ...(raw.hasSchemaFormConfig === true ? { hasSchemaFormConfig: true } : {}),
        },
      };
    }
    case IssueRuleIds.NotifyEmail: {
      const targetType = raw.targetType;
      if (!MAIL_TARGET_TYPES.includes(targetType as never))
        return { error: `actions[${index}]: targetType must be one of ${MAIL_TARGET_TYPES.join(', ')}`, field };
      const fallthroughType = raw.fallthroughType ?? 'ActiveMembers';
      if (!MAIL_FALLTHROUGH_TYPES.includes(fallthroughType as never)) {
        return { error: `actions[${index}]: fallthroughType must be one of ${MAIL_FALLTHROUGH_TYPES.join(', ')}`, field };
      }
      const identifier = integerOf(raw.targetIdentifier);
      if (targetType !== 'IssueOwners' && (identifier === undefined || identifier < 1)) {
        return { error: `actions[${index}]: targetIdentifier must be the id of the ${targetType === 'Team' ? 'team' : "member's user"}`, field };
      }
      return {
        ok: {
          id: raw.id,
          uuid,
          targetType: targetType as (typeof MAIL_TARGET_TYPES)[number],
          targetIdentifier: targetType === 'IssueOwners' ? null : String(identifier),
          fallthroughType: fallthroughType as (typeof MAIL_FALLTHROUGH_TYPES)[number],
        },
      };
    }
    default:
      if (isChatAction(raw.id)) {
        const url = typeof raw.webhookUrl === 'string' ? raw.webhookUrl.trim() : '';
        let parsed: URL | undefined;
        try {
          parsed = new URL(url);
        } catch {
          parsed = undefined;
        }
        if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') || url.length > 2000) {
          return { error: `actions[${index}]: webhookUrl must be the http(s) URL of the channel's incoming webhook`, field };
        }
        return { ok: { id: raw.id, uuid, webhookUrl: url } };
      }
      return { error: `actions[${index}]: unknown action ${raw.id}`, field };
  }
}

/** What the evaluator knows about one processed event when it checks a rule. */
export interface EventFacts {
  readonly isNewIssue: boolean;
  readonly isRegression: boolean;
  readonly level: string;
  readonly environment: string;
  /** The event's tags plus level, environment, release and user, as Sentry's TaggedEventFilter sees them. */
  readonly tags: ReadonlyArray<readonly [string, string]>;
  /** Seconds since the issue was first seen; undefined when no rule needs it. */
  readonly issueAgeSeconds?: number;
  /** Events of the issue in each interval (by its name, e.g. '1h'), this event included. */
  readonly eventsIn: (interval: string) => number;
  /** Distinct users of the issue in each interval. */
  readonly usersIn: (interval: string) => number;
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

export function conditionPasses(condition: IssueRuleCondition, facts: EventFacts): boolean {
  switch (condition.id) {
    case IssueRuleIds.FirstSeenEvent:
      return facts.isNewIssue;
    case IssueRuleIds.RegressionEvent:
      return facts.isRegression;
    case IssueRuleIds.EveryEvent:
      return true;
    case IssueRuleIds.EventFrequency:
      return facts.eventsIn(condition.interval) > condition.value;
    case IssueRuleIds.EventUniqueUserFrequency:
      return facts.usersIn(condition.interval) > condition.value;
  }
}

export function filterPasses(filter: IssueRuleFilter, facts: EventFacts): boolean {
  switch (filter.id) {
    case IssueRuleIds.LevelFilter: {
      const level = LEVEL_NUMBERS[facts.level];
      if (level === undefined) return false;
      const wanted = Number(filter.level);
      return filter.match === 'eq' ? level === wanted : filter.match === 'gte' ? level >= wanted : level <= wanted;
    }
    case IssueRuleIds.TaggedEventFilter:
      return tagMatches(filter, facts.tags);
    case IssueRuleIds.AgeComparisonFilter: {
      if (facts.issueAgeSeconds === undefined) return false;
      const limit = filter.value * AGE_UNITS[filter.time];
      return filter.comparison_type === 'older' ? facts.issueAgeSeconds > limit : facts.issueAgeSeconds < limit;
    }
  }
}

function tagMatches(filter: Extract<IssueRuleFilter, { id: typeof IssueRuleIds.TaggedEventFilter }>, tags: EventFacts['tags']): boolean {
  const key = filter.key.toLowerCase();
  const values = tags.filter(([k]) => k.toLowerCase() === key).map(([, v]) => v.toLowerCase());
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
      rule.conditions.map((c) => conditionPasses(c, facts)),
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
  /** The windows (in seconds) of the event and of the user frequency conditions. */
  eventWindows: number[];
  userWindows: number[];
}

export function needsOf(rules: readonly IssueRuleDefinition[]): RuleNeeds {
  const eventWindows = new Set<number>();
  const userWindows = new Set<number>();
  let issueAge = false;
  for (const rule of rules) {
    for (const condition of rule.conditions) {
      if (condition.id === IssueRuleIds.EventFrequency) eventWindows.add(FREQUENCY_INTERVALS[condition.interval]);
      if (condition.id === IssueRuleIds.EventUniqueUserFrequency) userWindows.add(FREQUENCY_INTERVALS[condition.interval]);
    }
    if (rule.filters.some((f) => f.id === IssueRuleIds.AgeComparisonFilter)) issueAge = true;
  }
  return { eventCounts: eventWindows.size > 0, userCounts: userWindows.size > 0, issueAge, eventWindows: [...eventWindows], userWindows: [...userWindows] };
}

const CONDITION_LABELS: Record<string, string> = {
  [IssueRuleIds.FirstSeenEvent]: 'A new issue is created',
  [IssueRuleIds.RegressionEvent]: 'The issue changes state from resolved to unresolved',
  [IssueRuleIds.EveryEvent]: 'The event occurs',
};

/** The human label Sentry's API answers as `name` beside each condition, filter and action. */
export function labelOf(item: IssueRuleCondition | IssueRuleFilter | IssueRuleAction): string {
  switch (item.id) {
    case IssueRuleIds.EventFrequency:
      return `The issue is seen more than ${item.value} times in ${item.interval}`;
    case IssueRuleIds.EventUniqueUserFrequency:
      return `The issue is seen by more than ${item.value} users in ${item.interval}`;
    case IssueRuleIds.LevelFilter:
      return `The event's level is ${item.match === 'eq' ? 'equal to' : item.match === 'gte' ? 'greater than or equal to' : 'less than or equal to'} ${levelName(item.level)}`;
    case IssueRuleIds.TaggedEventFilter:
      return `The event's tags match ${item.key} ${item.match}${item.value !== undefined ? ` ${item.value}` : ''}`;
    case IssueRuleIds.AgeComparisonFilter:
      return `The issue is ${item.comparison_type} than ${item.value} ${item.time}${item.value === 1 ? '' : 's'}`;
    case IssueRuleIds.NotifyEvent:
      return 'Send a notification to all legacy integrations';
    case IssueRuleIds.NotifyEventSentryApp:
      return `Send a notification via the service app installation ${item.sentryAppInstallationUuid}`;
    default:
      return CONDITION_LABELS[item.id] ?? item.id;
  }
}

function levelName(level: string): string {
  return Object.entries(LEVEL_NUMBERS).find(([, n]) => String(n) === level)?.[0] ?? level;
}

const choices = (entries: Array<[string, string]>) => ({ type: 'choice', choices: entries });
const INTERVAL_CHOICES: Array<[string, string]> = [
  ['1m', 'one minute'],
  ['5m', '5 minutes'],
  ['15m', '15 minutes'],
  ['1h', 'one hour'],
  ['1d', 'one day'],
  ['1w', 'one week'],
  ['30d', '30 days'],
];

/**
 * Sentry's `rules/configuration/`: the conditions, filters and actions a rule may use, each with
 * its label (with `{field}` placeholders) and the form fields that fill them, so a client can
 * build the rule editor.
 */
export function issueRuleConfiguration() {
  const item = (id: string, label: string, formFields?: Record<string, unknown>) => ({ id, label, enabled: true, ...(formFields ? { formFields } : {}) });
  return {
    actions: [
      { ...item(IssueRuleIds.NotifyEvent, 'Send a notification to all legacy integrations'), prompt: 'Send a notification to all legacy integrations' },
      {
        ...item(IssueRuleIds.NotifyEmail, 'Send a notification to {targetType}', {
          targetType: choices([
            ['IssueOwners', 'Suggested Assignees'],
            ['Team', 'Team'],
            ['Member', 'Member'],
          ]),
          targetIdentifier: { type: 'string', placeholder: 'team or user id' },
          fallthroughType: choices([
            ['ActiveMembers', 'Recently Active Members'],
            ['AllMembers', 'All Project Members'],
            ['NoOne', 'No One'],
          ]),
        }),
        prompt: 'Send an email',
      },
      ...(
        [
          [IssueRuleIds.NotifySlackWebhook, 'Slack', 'https://hooks.slack.example/services/T0/B0/secret'],
          [IssueRuleIds.NotifyDiscordWebhook, 'Discord', 'https://discord.example/api/webhooks/0/secret'],
          [IssueRuleIds.NotifyMsTeamsWebhook, 'Microsoft Teams', 'https://teams.example/webhookb2/secret'],
          [IssueRuleIds.NotifyMattermostWebhook, 'Mattermost', 'https://mattermost.example/hooks/secret'],
        ] as const
      ).map(([id, service, placeholder]) => ({
        ...item(id, `Send a ${service} message to {webhookUrl}`, { webhookUrl: { type: 'string', placeholder } }),
        prompt: `Send a ${service} message`,
      })),
    ],
    conditions: [
      item(IssueRuleIds.FirstSeenEvent, 'A new issue is created'),
      item(IssueRuleIds.RegressionEvent, 'The issue changes state from resolved to unresolved'),
      item(IssueRuleIds.EveryEvent, 'The event occurs'),
      item(IssueRuleIds.EventFrequency, 'The issue is seen more than {value} times in {interval}', {
        value: { type: 'number', placeholder: 100 },
        interval: choices(INTERVAL_CHOICES),
      }),
      item(IssueRuleIds.EventUniqueUserFrequency, 'The issue is seen by more than {value} users in {interval}', {
        value: { type: 'number', placeholder: 100 },
        interval: choices(INTERVAL_CHOICES),
      }),
    ],
    filters: [
      item(IssueRuleIds.LevelFilter, "The event's level is {match} {level}", {
        match: choices([
          ['eq', 'equal to'],
          ['gte', 'greater than or equal to'],
          ['lte', 'less than or equal to'],
        ]),
        level: choices(
          Object.entries(LEVEL_NUMBERS)
            .filter(([name]) => name !== 'sample')
            .map(([name, n]) => [String(n), name]),
        ),
      }),
      item(IssueRuleIds.TaggedEventFilter, "The event's tags match {key} {match} {value}", {
        key: { type: 'string', placeholder: 'key' },
        match: choices([
          ['eq', 'equals'],
          ['ne', 'does not equal'],
          ['sw', 'starts with'],
          ['ew', 'ends with'],
          ['co', 'contains'],
          ['nc', 'does not contain'],
          ['is', 'is set'],
          ['ns', 'is not set'],
        ]),
        value: { type: 'string', placeholder: 'value' },
      }),
      item(IssueRuleIds.AgeComparisonFilter, 'The issue is {comparison_type} than {value} {time}', {
        comparison_type: choices([
          ['older', 'older'],
          ['newer', 'newer'],
        ]),
        value: { type: 'number', placeholder: 10 },
        time: choices([
          ['minute', 'minute(s)'],
          ['hour', 'hour(s)'],
          ['day', 'day(s)'],
          ['week', 'week(s)'],
        ]),
      }),
    ],
  };
}
