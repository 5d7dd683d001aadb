import {
  AGE_UNITS,
  ASSIGNEE_TARGET_TYPES,
  type AssigneeTargetType,
  DEFAULT_FREQUENCY_MINUTES,
  EVENT_ATTRIBUTES,
  type EventAttribute,
  FREQUENCY_INTERVALS,
  type IssueRuleAction,
  type IssueRuleCondition,
  type IssueRuleDefinition,
  type IssueRuleFilter,
  IssueRuleIds,
  isChatAction,
  LEVEL_NUMBERS,
  MAIL_FALLTHROUGH_TYPES,
  MAIL_TARGET_TYPES,
  MATCH_KINDS,
  MAX_FREQUENCY_MINUTES,
  type MatchKind,
  MIN_FREQUENCY_MINUTES,
  PERCENT_INTERVALS,
  TAG_MATCHES,
  type TagMatch,
} from './issue-rule';

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
    case IssueRuleIds.ReappearedEvent:
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
    case IssueRuleIds.EventFrequencyPercent: {
      const value = typeof raw.value === 'string' && raw.value.trim() !== '' ? Number(raw.value) : raw.value;
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 100) {
        return { error: `conditions[${index}]: value must be a percentage from 0 to 100`, field };
      }
      const interval = raw.interval;
      if (typeof interval !== 'string' || !(interval in PERCENT_INTERVALS)) {
        return { error: `conditions[${index}]: interval must be one of ${Object.keys(PERCENT_INTERVALS).join(', ')}`, field };
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
    case IssueRuleIds.EventAttributeFilter: {
      if (!EVENT_ATTRIBUTES.includes(raw.attribute as EventAttribute))
        return { error: `filters[${index}]: attribute must be one of ${EVENT_ATTRIBUTES.join(', ')}`, field };
      const match = raw.match;
      if (!TAG_MATCHES.includes(match as TagMatch)) return { error: `filters[${index}]: match must be one of ${TAG_MATCHES.join(', ')}`, field };
      const attribute = raw.attribute as EventAttribute;
      if (match === 'is' || match === 'ns') return { ok: { id: raw.id, attribute, match } };
      if (typeof raw.value !== 'string' || raw.value.length > 200) return { error: `filters[${index}]: value is required`, field };
      return { ok: { id: raw.id, attribute, match: match as TagMatch, value: raw.value } };
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
    case IssueRuleIds.IssueOccurrencesFilter: {
      const value = integerOf(raw.value);
      if (value === undefined || value < 0) return { error: `filters[${index}]: value must be a whole number of at least 0`, field };
      return { ok: { id: raw.id, value } };
    }
    case IssueRuleIds.AssignedToFilter: {
      const targetType = raw.targetType;
      if (!ASSIGNEE_TARGET_TYPES.includes(targetType as AssigneeTargetType)) {
        return { error: `filters[${index}]: targetType must be one of ${ASSIGNEE_TARGET_TYPES.join(', ')}`, field };
      }
      if (targetType === 'Unassigned') return { ok: { id: raw.id, targetType, targetIdentifier: null } };
      const identifier = integerOf(raw.targetIdentifier);
      if (identifier === undefined || identifier < 1) {
        return { error: `filters[${index}]: targetIdentifier must be the id of the ${targetType === 'Team' ? 'team' : "member's user"}`, field };
      }
      return { ok: { id: raw.id, targetType: targetType as AssigneeTargetType, targetIdentifier: String(identifier) } };
    }
    case IssueRuleIds.LatestReleaseFilter:
      return { ok: { id: raw.id } };
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
