import { EVENT_ATTRIBUTES, type IssueRuleAction, type IssueRuleCondition, type IssueRuleFilter, IssueRuleIds, LEVEL_NUMBERS, type TagMatch } from '../domain';

const CONDITION_LABELS: Record<string, string> = {
  [IssueRuleIds.FirstSeenEvent]: 'A new issue is created',
  [IssueRuleIds.RegressionEvent]: 'The issue changes state from resolved to unresolved',
  [IssueRuleIds.EveryEvent]: 'The event occurs',
  [IssueRuleIds.ReappearedEvent]: 'The issue changes state from ignored to unresolved',
  [IssueRuleIds.LatestReleaseFilter]: 'The event is from the latest release',
};

/** The human label Sentry's API answers as `name` beside each condition, filter and action. */
export function labelOf(item: IssueRuleCondition | IssueRuleFilter | IssueRuleAction): string {
  switch (item.id) {
    case IssueRuleIds.EventFrequency:
      return `The issue is seen more than ${item.value} times in ${item.interval}`;
    case IssueRuleIds.EventUniqueUserFrequency:
      return `The issue is seen by more than ${item.value} users in ${item.interval}`;
    case IssueRuleIds.EventFrequencyPercent:
      return `The issue affects more than ${item.value} percent of sessions in ${item.interval}`;
    case IssueRuleIds.IssueOccurrencesFilter:
      return `The issue has happened at least ${item.value} times`;
    case IssueRuleIds.AssignedToFilter:
      return `The issue is assigned to ${item.targetType === 'Unassigned' ? 'no one' : `${item.targetType === 'Team' ? 'team' : 'member'} ${item.targetIdentifier}`}`;
    case IssueRuleIds.LevelFilter:
      return `The event's level is ${item.match === 'eq' ? 'equal to' : item.match === 'gte' ? 'greater than or equal to' : 'less than or equal to'} ${levelName(item.level)}`;
    case IssueRuleIds.TaggedEventFilter:
      return `The event's tags match ${item.key} ${item.match}${item.value !== undefined ? ` ${item.value}` : ''}`;
    case IssueRuleIds.EventAttributeFilter:
      return `The event's ${item.attribute} value ${TAG_MATCH_LABELS[item.match]}${item.value !== undefined ? ` ${item.value}` : ''}`;
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

const TAG_MATCH_CHOICES: Array<[TagMatch, string]> = [
  ['eq', 'equals'],
  ['ne', 'does not equal'],
  ['sw', 'starts with'],
  ['ew', 'ends with'],
  ['co', 'contains'],
  ['nc', 'does not contain'],
  ['is', 'is set'],
  ['ns', 'is not set'],
];
const TAG_MATCH_LABELS = Object.fromEntries(TAG_MATCH_CHOICES) as Record<TagMatch, string>;

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
      item(IssueRuleIds.EventFrequencyPercent, 'The issue affects more than {value} percent of sessions in {interval}', {
        value: { type: 'number', placeholder: 100 },
        // Sentry still evaluates 1m but no longer offers it.
        interval: choices([
          ['5m', '5 minutes'],
          ['10m', '10 minutes'],
          ['30m', '30 minutes'],
          ['1h', '1 hour'],
        ]),
      }),
      item(IssueRuleIds.ReappearedEvent, 'The issue changes state from ignored to unresolved'),
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
        match: choices(TAG_MATCH_CHOICES),
        value: { type: 'string', placeholder: 'value' },
      }),
      item(IssueRuleIds.EventAttributeFilter, "The event's {attribute} value {match} {value}", {
        attribute: choices(EVENT_ATTRIBUTES.map((attribute) => [attribute, attribute])),
        match: choices(TAG_MATCH_CHOICES),
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
      item(IssueRuleIds.IssueOccurrencesFilter, 'The issue has happened at least {value} times', { value: { type: 'number', placeholder: 10 } }),
      {
        ...item(IssueRuleIds.AssignedToFilter, 'The issue is assigned to {targetType}', {
          targetType: choices([
            ['Unassigned', 'No One'],
            ['Team', 'Team'],
            ['Member', 'Member'],
          ]),
          targetIdentifier: { type: 'string', placeholder: 'team or user id' },
        }),
        prompt: 'The issue is assigned to no one, a team or a member',
      },
      item(IssueRuleIds.LatestReleaseFilter, 'The event is from the latest release'),
    ],
  };
}
