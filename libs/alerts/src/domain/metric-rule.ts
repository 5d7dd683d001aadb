/**
 * Metric alert rules as Sentry's API writes them: an aggregate over a project's errors in a time
 * window, a critical (and optional warning) trigger with its threshold and actions, a direction
 * (`thresholdType` 0 above, 1 below) and an optional resolve threshold.
 */
export const METRIC_AGGREGATES = ['count()', 'count_unique(user)'] as const;
export type MetricAggregate = (typeof METRIC_AGGREGATES)[number];

/** Sentry's time windows, in minutes. */
export const METRIC_TIME_WINDOWS = [1, 5, 10, 15, 30, 60, 120, 240, 1440] as const;

export const ThresholdType = { Above: 0, Below: 1 } as const;
export type ThresholdTypeValue = (typeof ThresholdType)[keyof typeof ThresholdType];

export type TriggerLabel = 'critical' | 'warning';

export interface MetricTriggerAction {
  id: string;
  type: 'sentry_app';
  targetType: 'sentry_app';
  targetIdentifier: string;
  sentryAppInstallationUuid: string;
  settings: Array<{ name: string; value: unknown }> | null;
}

export interface MetricTrigger {
  id: string;
  label: TriggerLabel;
  alertThreshold: number;
  actions: MetricTriggerAction[];
}

export interface MetricRuleDefinition {
  name: string;
  aggregate: MetricAggregate;
  query: string;
  timeWindow: number;
  thresholdType: ThresholdTypeValue;
  resolveThreshold: number | null;
  projects: string[];
  environment: string | null;
  owner: string | null;
  triggers: MetricTrigger[];
}

/** One key of a metric rule's query: its values, or anything but them. */
export interface MetricValueFilter {
  readonly negated: boolean;
  readonly values: readonly string[];
}

/** What a metric rule's query keeps of its projects' errors: the environments and levels it names. */
export interface MetricQueryFilter {
  readonly environments?: MetricValueFilter;
  readonly levels?: MetricValueFilter;
}

/** A term of a query in Sentry's search syntax, as far as a metric rule reads it. */
export type MetricQueryTerm =
  { readonly type: 'filter'; readonly key: string; readonly negated: boolean; readonly values: readonly string[] } | { readonly type: 'text' };

const METRIC_QUERY_KEYS = { environment: 'environments', level: 'levels' } as const;

/**
 * A metric rule's query (`environment:prod level:error`, `!level:info`, `level:[error,fatal]`):
 * the errors counted are those of the environments and levels it names. Other keys and free text
 * are refused, rather than ignored: the counts behind metric rules keep only these two.
 */
export function metricQueryFilter(terms: readonly MetricQueryTerm[]): Checked<MetricQueryFilter> {
  const filter: { environments?: MetricValueFilter; levels?: MetricValueFilter } = {};
  for (const term of terms) {
    if (term.type === 'text') return { error: 'query: free text is not supported; filter by environment: and level:', field: 'query' };
    const name = METRIC_QUERY_KEYS[term.key as keyof typeof METRIC_QUERY_KEYS];
    if (!name) return { error: `query: ${term.key} is not supported; filter by environment: and level:`, field: 'query' };
    if (filter[name]) return { error: `query: give ${term.key}: once (a list such as ${term.key}:[a,b] names several)`, field: 'query' };
    if (name === 'levels') {
      const unknown = term.values.find((level) => !(level.toLowerCase() in LEVELS));
      if (unknown !== undefined) return { error: `query: level ${unknown} is not one of ${Object.keys(LEVELS).join(', ')}`, field: 'query' };
    }
    filter[name] = { negated: term.negated, values: name === 'levels' ? term.values.map((level) => level.toLowerCase()) : [...term.values] };
  }
  return { ok: filter };
}

const LEVELS = { fatal: 1, error: 1, warning: 1, info: 1, debug: 1 } as const;

/** A trigger as submitted: its id (and its actions' ids) are kept on update, new ones get fresh ids. */
type Checked<T> = { ok: T } | { error: string; field: string };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

function numberOf(value: unknown): number | undefined {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) ? number : undefined;
}

/** Validates a metric alert rule as Sentry's API receives it; `newId` numbers new triggers and actions. */
export function validateMetricRule(input: Record<string, unknown>, newId: () => string): Checked<MetricRuleDefinition> {
  const name = input.name;
  if (typeof name !== 'string' || name.trim() === '') return { error: 'name: This field is required.', field: 'name' };
  if (name.length > 256) return { error: 'name: Ensure this field has no more than 256 characters.', field: 'name' };
  const aggregate = input.aggregate;
  if (!METRIC_AGGREGATES.includes(aggregate as MetricAggregate))
    return { error: `aggregate: must be one of ${METRIC_AGGREGATES.join(', ')}`, field: 'aggregate' };
  const query = input.query ?? '';
  if (typeof query !== 'string') return { error: 'query: must be a string', field: 'query' };
  if (query.length > 1000) return { error: 'query: at most 1000 characters', field: 'query' };
  const dataset = input.dataset ?? 'events';
  if (dataset !== 'events' && dataset !== 'errors') return { error: 'dataset: only events (errors) are supported', field: 'dataset' };
  const timeWindow = numberOf(input.timeWindow);
  if (timeWindow === undefined || !(METRIC_TIME_WINDOWS as readonly number[]).includes(timeWindow)) {
    return { error: `timeWindow: must be one of ${METRIC_TIME_WINDOWS.join(', ')} (minutes)`, field: 'timeWindow' };
  }
  const thresholdType = numberOf(input.thresholdType ?? 0);
  if (thresholdType !== 0 && thresholdType !== 1) return { error: 'thresholdType: must be 0 (above) or 1 (below)', field: 'thresholdType' };
  const resolveThreshold =
    input.resolveThreshold === undefined || input.resolveThreshold === null || input.resolveThreshold === '' ? null : numberOf(input.resolveThreshold);
  if (resolveThreshold === undefined) return { error: 'resolveThreshold: must be a number', field: 'resolveThreshold' };
  const projects = input.projects;
  if (!Array.isArray(projects) || projects.length === 0 || projects.length > 100 || !projects.every((p) => typeof p === 'string' && p !== '')) {
    return { error: 'projects: must list at least one project slug', field: 'projects' };
  }
  const environment = input.environment ?? null;
  if (environment !== null && (typeof environment !== 'string' || environment === '' || environment.length > 64)) {
    return { error: 'environment: must be the name of an environment (at most 64 characters), or null for all', field: 'environment' };
  }
  const owner = input.owner ?? null;
  if (owner !== null && (typeof owner !== 'string' || !/^(user|team):\d+$/.test(owner)))
    return { error: 'owner: must be "user:<id>" or "team:<id>"', field: 'owner' };

  const rawTriggers = input.triggers;
  if (!Array.isArray(rawTriggers) || rawTriggers.length === 0) return { error: 'triggers: Must include at least one trigger', field: 'triggers' };
  if (rawTriggers.length > 2) return { error: 'triggers: Must send 1 or 2 triggers - A critical trigger, and an optional warning trigger', field: 'triggers' };
  const triggers: MetricTrigger[] = [];
  for (const [index, raw] of rawTriggers.entries()) {
    const checked = validateTrigger(raw, index, newId);
    if ('error' in checked) return checked;
    triggers.push(checked.ok);
  }
  const critical = triggers.find((t) => t.label === 'critical');
  const warning = triggers.find((t) => t.label === 'warning');
  if (!critical || (triggers.length === 2 && !warning)) return { error: 'triggers: Trigger 1 must be labeled "critical"', field: 'triggers' };
  const above = thresholdType === ThresholdType.Above;
  if (warning && (above ? warning.alertThreshold > critical.alertThreshold : warning.alertThreshold < critical.alertThreshold)) {
    return { error: `triggers: Critical trigger must have an alert threshold ${above ? 'above' : 'below'} the warning trigger`, field: 'triggers' };
  }
  if (resolveThreshold !== null) {
    const least = warning ?? critical;
    if (above ? resolveThreshold >= least.alertThreshold : resolveThreshold <= least.alertThreshold) {
      return { error: `resolveThreshold: must be ${above ? 'lower' : 'higher'} than the alert thresholds`, field: 'resolveThreshold' };
    }
  }
  // Critical first, as Sentry lists them.
  triggers.sort((a, b) => (a.label === b.label ? 0 : a.label === 'critical' ? -1 : 1));
  return {
    ok: {
      name: name.trim(),
      aggregate: aggregate as MetricAggregate,
      query: query.trim(),
      timeWindow,
      thresholdType,
      resolveThreshold,
      projects: [...new Set(projects as string[])],
      environment: environment as string | null,
      owner: owner as string | null,
      triggers,
    },
  };
}

function validateTrigger(raw: unknown, index: number, newId: () => string): Checked<MetricTrigger> {
  const field = 'triggers';
  if (!isRecord(raw)) return { error: `triggers[${index}]: must be an object`, field };
  if (raw.label !== 'critical' && raw.label !== 'warning') return { error: `triggers[${index}]: label must be critical or warning`, field };
  const alertThreshold = numberOf(raw.alertThreshold);
  if (alertThreshold === undefined) return { error: `triggers[${index}]: alertThreshold must be a number`, field };
  const rawActions = raw.actions ?? [];
  if (!Array.isArray(rawActions) || rawActions.length > 10) return { error: `triggers[${index}]: actions must be a list`, field };
  const actions: MetricTriggerAction[] = [];
  for (const [a, action] of rawActions.entries()) {
    if (!isRecord(action)) return { error: `triggers[${index}].actions[${a}]: must be an object`, field };
    if (action.type !== 'sentry_app')
      return { error: `triggers[${index}].actions[${a}]: type must be sentry_app (other notification services are not available)`, field };
    const installation = action.sentryAppInstallationUuid;
    if (typeof installation !== 'string' || !UUID.test(installation))
      return { error: `triggers[${index}].actions[${a}]: sentryAppInstallationUuid must be a UUID`, field };
    const settings = action.settings ?? null;
    if (settings !== null && (!Array.isArray(settings) || !settings.every((s) => isRecord(s) && typeof s.name === 'string'))) {
      return { error: `triggers[${index}].actions[${a}]: settings must be a list of {"name", "value"}`, field };
    }
    const target = action.targetIdentifier;
    actions.push({
      id: typeof action.id === 'string' && /^\d+$/.test(action.id) ? action.id : newId(),
      type: 'sentry_app',
      targetType: 'sentry_app',
      targetIdentifier: typeof target === 'string' || typeof target === 'number' ? String(target) : installation.toLowerCase(),
      sentryAppInstallationUuid: installation.toLowerCase(),
      settings: settings === null ? null : (settings as Array<Record<string, unknown>>).map((s) => ({ name: s.name as string, value: s.value ?? null })),
    });
  }
  return {
    ok: { id: typeof raw.id === 'string' && /^\d+$/.test(raw.id) ? raw.id : newId(), label: raw.label, alertThreshold, actions },
  };
}

export type IncidentStatus = 'open' | 'warning' | 'critical' | 'resolved';

/** Where a rule's incident should be after a measurement: a trigger's level, resolved, or unchanged. */
export type IncidentTarget = 'warning' | 'critical' | 'resolved' | 'unchanged';

/**
 * Sentry's trigger logic: the most severe breached trigger wins; with none breached an active
 * incident resolves once the value has crossed the resolve threshold (or at once without one),
 * and otherwise stays where it is. `current` is undefined when the rule has no active incident.
 */
export function decideIncident(
  rule: Pick<MetricRuleDefinition, 'thresholdType' | 'resolveThreshold' | 'triggers'>,
  current: IncidentStatus | undefined,
  value: number,
): IncidentTarget {
  const above = rule.thresholdType === ThresholdType.Above;
  const breaches = (threshold: number) => (above ? value > threshold : value < threshold);
  const critical = rule.triggers.find((t) => t.label === 'critical');
  const warning = rule.triggers.find((t) => t.label === 'warning');
  let target: IncidentTarget = 'unchanged';
  if (critical && breaches(critical.alertThreshold)) target = 'critical';
  else if (warning && breaches(warning.alertThreshold)) target = 'warning';
  const active = current !== undefined && current !== 'resolved';
  if (target !== 'unchanged') return active && current === target ? 'unchanged' : target;
  if (!active) return 'unchanged';
  const resolved = rule.resolveThreshold === null ? true : above ? value < rule.resolveThreshold : value > rule.resolveThreshold;
  return resolved ? 'resolved' : 'unchanged';
}

/** Sentry's "1000 events in the last 10 minutes" line of a metric alert. */
export function describeValue(aggregate: MetricAggregate, value: number, timeWindow: number): string {
  const noun = aggregate === 'count()' ? 'events' : 'users';
  const window = timeWindow % 60 === 0 ? `${timeWindow / 60} hour${timeWindow === 60 ? '' : 's'}` : `${timeWindow} minute${timeWindow === 1 ? '' : 's'}`;
  return `${value} ${noun} in the last ${window}`;
}
