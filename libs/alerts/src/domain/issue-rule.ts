/**
 * Issue alert rules as Sentry's API writes them: conditions, filters and actions named by Sentry's
 * ids, `actionMatch` over the conditions and `filterMatch` over the filters, and a frequency (the
 * minimum minutes between two fires of the rule for one issue).
 *
 * This file is the model; validation (`issue-rule-validation.ts`) and evaluation
 * (`issue-rule-evaluation.ts`) are beside it, the labels and catalogue the API shows in
 * `api/issue-rule-catalogue.ts`.
 */
export const IssueRuleIds = {
  FirstSeenEvent: 'sentry.rules.conditions.first_seen_event.FirstSeenEventCondition',
  RegressionEvent: 'sentry.rules.conditions.regression_event.RegressionEventCondition',
  EveryEvent: 'sentry.rules.conditions.every_event.EveryEventCondition',
  EventFrequency: 'sentry.rules.conditions.event_frequency.EventFrequencyCondition',
  EventUniqueUserFrequency: 'sentry.rules.conditions.event_frequency.EventUniqueUserFrequencyCondition',
  EventFrequencyPercent: 'sentry.rules.conditions.event_frequency.EventFrequencyPercentCondition',
  ReappearedEvent: 'sentry.rules.conditions.reappeared_event.ReappearedEventCondition',
  LevelFilter: 'sentry.rules.filters.level.LevelFilter',
  TaggedEventFilter: 'sentry.rules.filters.tagged_event.TaggedEventFilter',
  AgeComparisonFilter: 'sentry.rules.filters.age_comparison.AgeComparisonFilter',
  EventAttributeFilter: 'sentry.rules.filters.event_attribute.EventAttributeFilter',
  IssueOccurrencesFilter: 'sentry.rules.filters.issue_occurrences.IssueOccurrencesFilter',
  AssignedToFilter: 'sentry.rules.filters.assigned_to.AssignedToFilter',
  LatestReleaseFilter: 'sentry.rules.filters.latest_release.LatestReleaseFilter',
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
export const isChatAction = (id: string): id is ChatActionId => id in CHAT_ACTION_SERVICES;

export const MAIL_TARGET_TYPES = ['IssueOwners', 'Team', 'Member'] as const;
export const MAIL_FALLTHROUGH_TYPES = ['ActiveMembers', 'AllMembers', 'NoOne'] as const;

export type MatchKind = 'all' | 'any' | 'none';
export const MATCH_KINDS: readonly MatchKind[] = ['all', 'any', 'none'];

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

/**
 * The intervals of the percent-of-sessions condition: Sentry offers 5m to 1h and still evaluates
 * rules saved with 1m.
 */
export const PERCENT_INTERVALS: Readonly<Record<string, number>> = Object.freeze({ '1m': 60, '5m': 300, '10m': 600, '30m': 1800, '1h': 3600 });
/** Sentry's percent condition stays quiet while the project had fewer sessions than this in the last hour. */
export const MIN_SESSIONS_TO_FIRE = 50;

/** The window of a frequency or percent condition's interval, in seconds. */
export function intervalSeconds(interval: string): number {
  return FREQUENCY_INTERVALS[interval] ?? PERCENT_INTERVALS[interval];
}

export const ASSIGNEE_TARGET_TYPES = ['Unassigned', 'Team', 'Member'] as const;
export type AssigneeTargetType = (typeof ASSIGNEE_TARGET_TYPES)[number];

/** Sentry's numeric levels (LevelFilter compares them). */
export const LEVEL_NUMBERS: Readonly<Record<string, number>> = Object.freeze({ fatal: 50, error: 40, warning: 30, info: 20, debug: 10, sample: 0 });

export const TAG_MATCHES = ['eq', 'ne', 'sw', 'ew', 'co', 'nc', 'is', 'ns'] as const;
export type TagMatch = (typeof TAG_MATCHES)[number];
/** The event attributes EventAttributeFilter compares (those of Sentry's that a processed error event carries). */
export const EVENT_ATTRIBUTES = ['message', 'platform', 'environment', 'type'] as const;
export type EventAttribute = (typeof EVENT_ATTRIBUTES)[number];
/** The units of AgeComparisonFilter's `time`, in seconds. */
export const AGE_UNITS: Readonly<Record<string, number>> = Object.freeze({ minute: 60, hour: 3600, day: 86_400, week: 604_800 });

export type IssueRuleCondition =
  | { id: typeof IssueRuleIds.FirstSeenEvent }
  | { id: typeof IssueRuleIds.RegressionEvent }
  | { id: typeof IssueRuleIds.EveryEvent }
  | { id: typeof IssueRuleIds.ReappearedEvent }
  | { id: typeof IssueRuleIds.EventFrequency | typeof IssueRuleIds.EventUniqueUserFrequency; value: number; interval: string; comparisonType: 'count' }
  /** `value` is a percentage (0 to 100) of the sessions in the interval. */
  | { id: typeof IssueRuleIds.EventFrequencyPercent; value: number; interval: string; comparisonType: 'count' };

export type IssueRuleFilter =
  | { id: typeof IssueRuleIds.LevelFilter; match: 'eq' | 'gte' | 'lte'; level: string }
  | { id: typeof IssueRuleIds.TaggedEventFilter; key: string; match: TagMatch; value?: string }
  | { id: typeof IssueRuleIds.AgeComparisonFilter; comparison_type: 'older' | 'newer'; value: number; time: string }
  | { id: typeof IssueRuleIds.EventAttributeFilter; attribute: EventAttribute; match: TagMatch; value?: string }
  | { id: typeof IssueRuleIds.IssueOccurrencesFilter; value: number }
  /** `targetIdentifier`: the team's id, or the member's user id; null for Unassigned. */
  | { id: typeof IssueRuleIds.AssignedToFilter; targetType: AssigneeTargetType; targetIdentifier: string | null }
  | { id: typeof IssueRuleIds.LatestReleaseFilter };

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
