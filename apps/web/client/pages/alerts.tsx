import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, enc } from '../api';
import { Link } from '../router';
import { CountChart } from './issues/widgets';
import { type Access, ErrorNote, Field, formatDate, NeedsScope, Section, SelectField, Skeleton, Status, useAccess, useLoad, useTitle } from '../components';

/** One form field of a catalogue item, as `rules/configuration/` describes it. */
interface FormField {
  type: 'choice' | 'number' | 'string';
  choices?: Array<[string, string]>;
  placeholder?: string | number;
}

/** A condition, filter or action the server accepts (`GET …/rules/configuration/`). */
interface CatalogueItem {
  id: string;
  label: string;
  prompt?: string;
  formFields?: Record<string, FormField>;
}

interface Catalogue {
  conditions: CatalogueItem[];
  filters: CatalogueItem[];
  actions: CatalogueItem[];
}

/** A condition, filter or action of a rule: its id, its fields, and whatever else the server keeps (an action's uuid…). */
type RuleItem = { id: string; name?: string } & Record<string, unknown>;

interface Rule {
  id: string;
  name: string;
  actionMatch: string;
  filterMatch: string;
  frequency: number;
  environment: string | null;
  owner: string | null;
  conditions: RuleItem[];
  filters: RuleItem[];
  actions: RuleItem[];
  lastTriggered?: string | null;
}

interface GroupHistory {
  group: { id: string; shortId: string; title: string; level: string; status: string };
  count: number;
  lastTriggered: string;
  eventId: string;
}

/** One hour of Sentry's rule stats. */
interface RuleStatsBucket {
  date: string;
  count: number;
}

interface Project {
  slug: string;
  name: string;
}

interface Member {
  email: string;
  user: { id: string } | null;
}

interface Team {
  id: string;
  slug: string;
  name: string;
}

type ListName = 'conditions' | 'filters' | 'actions';

const MATCH_OPTIONS: Array<[string, string]> = [
  ['all', 'all'],
  ['any', 'any'],
  ['none', 'none'],
];

/** Readable names of the catalogue's form fields; a field not named here shows its own name. */
const FIELD_LABELS: Record<string, string> = {
  value: 'Value',
  interval: 'Interval',
  comparisonType: 'Comparison',
  match: 'Match',
  level: 'Level',
  key: 'Tag',
  comparison_type: 'Older or newer',
  time: 'Unit',
  targetType: 'Send to',
  targetIdentifier: 'Who',
  fallthroughType: 'When nobody is assigned',
  webhookUrl: 'Incoming webhook URL',
};

const ASSIGNED_TO_FILTER = 'sentry.rules.filters.assigned_to.AssignedToFilter';
/** Target types that name nobody in particular: no team or member to choose. */
const NOBODY_IN_PARTICULAR = ['IssueOwners', 'Unassigned'];

/** Who may change issue alert rules (the API asks for either scope). */
const canWriteRules = (access: Access) => access.has('alerts:write') || access.has('project:write');

/** A new item as the catalogue describes it: each choice at its first option, each number at its example. */
function newItem(entry: CatalogueItem): RuleItem {
  const item: RuleItem = { id: entry.id };
  for (const [name, field] of Object.entries(entry.formFields ?? {})) {
    if (field.type === 'choice') item[name] = field.choices?.[0]?.[0] ?? '';
    else if (field.type === 'number') item[name] = field.placeholder ?? 0;
    else item[name] = '';
  }
  if (entry.id === 'sentry.mail.actions.NotifyEmailAction' || entry.id === ASSIGNED_TO_FILTER) item.targetIdentifier = null;
  return item;
}

/** The body the API takes: each item without the label the server added (`name`), numbers as numbers. */
function itemsForSave(items: readonly RuleItem[], catalogue: readonly CatalogueItem[]): RuleItem[] {
  return items.map((item) => {
    const rest: RuleItem = { ...item };
    delete rest.name;
    const fields = catalogue.find((entry) => entry.id === item.id)?.formFields ?? {};
    for (const [name, field] of Object.entries(fields)) {
      const value = rest[name];
      if (field.type === 'number' && typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) rest[name] = Number(value);
    }
    return rest;
  });
}

/** A label with its `{field}` placeholders shown as the field's current value. */
function sentence(label: string, item: RuleItem, fields: Record<string, FormField>): string {
  return label.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = item[name];
    const choice = fields[name]?.choices?.find(([option]) => option === String(value));
    return choice ? choice[1] : value === undefined || value === null || value === '' ? '…' : String(value);
  });
}

/** Issue alert rules of a project: list with last fire, a rule's history, and an editor built from the server's catalogue. */
export function AlertRulesPage(props: { params: Record<string, string> }) {
  const { org } = props.params;
  useTitle('Alert rules');
  const access = useAccess(org);
  const canWrite = canWriteRules(access);
  const projects = useLoad(() => api<Project[]>('GET', `/api/0/organizations/${enc(org)}/projects/`).then(({ body }) => body), [org]);
  const members = useLoad(() => api<Member[]>('GET', `/api/0/organizations/${enc(org)}/members/`).then(({ body }) => body), [org]);
  const teams = useLoad(() => api<Team[]>('GET', `/api/0/organizations/${enc(org)}/teams/`).then(({ body }) => body), [org]);
  const [project, setProject] = useState('');
  useEffect(() => {
    if (!project && projects.data?.[0]) setProject(projects.data[0].slug);
  }, [projects.data]);
  const projectPath = `/api/0/projects/${enc(org)}/${enc(project)}`;
  const rulesPath = `${projectPath}/rules/`;
  const rules = useLoad(
    () => (project ? api<Rule[]>('GET', `${rulesPath}?expand=lastTriggered`).then(({ body }) => body) : Promise.resolve([])),
    [org, project],
  );
  const catalogue = useLoad(
    () => (project ? api<Catalogue>('GET', `${rulesPath}configuration/`).then(({ body }) => body) : Promise.resolve(undefined)),
    [org, project],
  );
  const environments = useLoad(
    () =>
      project
        ? api<Array<{ value: string }>>('GET', `${projectPath}/tags/environment/values/`).then(({ body }) => body.map((row) => row.value))
        : Promise.resolve([]),
    [org, project],
  );
  const [editing, setEditing] = useState<Rule | null>(null);
  /** Counts saves, so a saved new rule's form starts empty again. */
  const [saves, setSaves] = useState(0);
  const [history, setHistory] = useState<Rule | null>(null);
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<unknown>();

  const remove = async (rule: Rule) => {
    if (!confirm(`Delete the rule ${rule.name}?`)) return;
    setError(undefined);
    try {
      await api('DELETE', `${rulesPath}${enc(rule.id)}/`);
      if (history?.id === rule.id) setHistory(null);
      rules.reload();
    } catch (failure) {
      setError(failure);
    }
  };

  return (
    <>
      <h1>Alert rules</h1>
      <p class="lead">
        Issue alerts fire for an issue's events; <Link href={`/organizations/${org}/alerts/metric-rules/`}>metric alerts</Link> watch the error count of whole
        projects.
      </p>
      <SelectField
        label="Project"
        name="project"
        value={project}
        onChange={(slug) => {
          setProject(slug);
          setEditing(null);
          setHistory(null);
        }}
        options={(projects.data ?? []).map((p): [string, string] => [p.slug, p.name || p.slug])}
      />
      <Section title="Rules">
        <ErrorNote error={projects.error ?? rules.error ?? error} />
        {rules.loading && !rules.data ? (
          <Skeleton rows={3} />
        ) : rules.data?.length ? (
          <table>
            <thead>
              <tr>
                <th scope="col">Rule</th>
                <th scope="col">When</th>
                <th scope="col">Environment</th>
                <th scope="col">Last triggered</th>
                <th scope="col">Manage</th>
              </tr>
            </thead>
            <tbody>
              {rules.data.map((rule) => (
                <tr key={rule.id}>
                  <td>{rule.name}</td>
                  <td>{rule.conditions.map((condition) => condition.name ?? condition.id).join(`; ${rule.actionMatch} of: `) || '—'}</td>
                  <td>{rule.environment ?? 'All'}</td>
                  <td>{rule.lastTriggered ? formatDate(rule.lastTriggered) : 'Never'}</td>
                  <td>
                    {canWrite && (
                      <>
                        <button
                          type="button"
                          onClick={() => {
                            setEditing(rule);
                            setNotice(undefined);
                          }}
                        >
                          Edit
                        </button>{' '}
                      </>
                    )}
                    <button type="button" onClick={() => setHistory(rule)} aria-label={`History of ${rule.name}`}>
                      History
                    </button>
                    {canWrite && (
                      <>
                        {' '}
                        <button type="button" class="danger" onClick={() => void remove(rule)}>
                          Delete
                        </button>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p>No rules yet.</p>
        )}
      </Section>
      {history && <RuleHistory org={org} rulesPath={rulesPath} rule={history} onClose={() => setHistory(null)} />}
      <ErrorNote error={catalogue.error} />
      <NeedsScope access={access} scope="alerts:write" what="create, edit or delete alert rules" />
      {catalogue.data && canWrite && (
        <RuleEditor
          key={`${project}:${editing?.id ?? 'new'}:${saves}`}
          rule={editing}
          catalogue={catalogue.data}
          projectPath={projectPath}
          environments={environments.data ?? []}
          members={members.data ?? []}
          teams={teams.data ?? []}
          notice={notice}
          onSaved={(message) => {
            setNotice(message);
            setEditing(null);
            setSaves(saves + 1);
            rules.reload();
          }}
          onCancel={() => setEditing(null)}
        />
      )}
    </>
  );
}

/** The rule's fires per hour (Sentry's rule stats). */
function FiresChart(props: { buckets: readonly RuleStatsBucket[] }) {
  return (
    <CountChart
      bars={props.buckets.map((bucket) => ({ key: bucket.date, count: bucket.count, label: formatDate(bucket.date) }))}
      noun="fire"
      period="14 days"
      end="now"
      step={4}
      class="fires-chart"
    />
  );
}

/** Sentry's rule group history: the fires per hour and the issues a rule fired for in the last 14 days, how often, and when last. */
function RuleHistory(props: { org: string; rulesPath: string; rule: Rule; onClose: () => void }) {
  const fires = useLoad(
    () => api<GroupHistory[]>('GET', `${props.rulesPath}${enc(props.rule.id)}/group-history/`).then(({ body }) => body),
    [props.rulesPath, props.rule.id],
  );
  const stats = useLoad(
    () => api<RuleStatsBucket[]>('GET', `${props.rulesPath}${enc(props.rule.id)}/stats/?statsPeriod=14d`).then(({ body }) => body),
    [props.rulesPath, props.rule.id],
  );
  return (
    <Section
      title={`History of ${props.rule.name}`}
      actions={
        <button type="button" onClick={props.onClose}>
          Close
        </button>
      }
    >
      <ErrorNote error={fires.error ?? stats.error} />
      {stats.data && <FiresChart buckets={stats.data} />}
      {fires.loading && !fires.data ? (
        <Skeleton rows={2} />
      ) : fires.data?.length ? (
        <table>
          <thead>
            <tr>
              <th scope="col">Issue</th>
              <th scope="col" class="number">
                Fires
              </th>
              <th scope="col">Last triggered</th>
            </tr>
          </thead>
          <tbody>
            {fires.data.map((row) => (
              <tr key={row.group.id}>
                <td>
                  <Link href={`/organizations/${props.org}/issues/${row.group.id}/`}>{row.group.shortId}</Link> {row.group.title}
                </td>
                <td class="number">{row.count}</td>
                <td>{formatDate(row.lastTriggered)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p>The rule has not fired in the last 14 days.</p>
      )}
    </Section>
  );
}

/** The rule editor: every condition, filter and action the server's catalogue lists, with their fields. */
function RuleEditor(props: {
  rule: Rule | null;
  catalogue: Catalogue;
  projectPath: string;
  environments: readonly string[];
  members: readonly Member[];
  teams: readonly Team[];
  notice?: string;
  onSaved: (notice: string) => void;
  onCancel: () => void;
}) {
  const { rule, catalogue } = props;
  const [name, setName] = useState(rule?.name ?? '');
  const [environment, setEnvironment] = useState(rule?.environment ?? '');
  const [owner, setOwner] = useState(rule?.owner ?? '');
  const [actionMatch, setActionMatch] = useState(rule?.actionMatch ?? 'all');
  const [filterMatch, setFilterMatch] = useState(rule?.filterMatch ?? 'all');
  const [frequency, setFrequency] = useState(String(rule?.frequency ?? 30));
  const [lists, setLists] = useState<Record<ListName, RuleItem[]>>({
    conditions: rule?.conditions.map((item) => ({ ...item })) ?? [newItem(catalogue.conditions[0])],
    filters: rule?.filters.map((item) => ({ ...item })) ?? [],
    actions: rule?.actions.map((item) => ({ ...item })) ?? [
      newItem(catalogue.actions.find((a) => a.id === 'sentry.mail.actions.NotifyEmailAction') ?? catalogue.actions[0]),
    ],
  });
  const [error, setError] = useState<unknown>();
  const [notice, setNotice] = useState(props.notice);
  const fieldNames = ['name', 'frequency', 'environment', 'owner', 'actionMatch', 'filterMatch', 'conditions', 'filters', 'actions'];
  const fieldError = (field: string) => (error instanceof ApiError ? error.field(field) : undefined);

  const body = () => ({
    name,
    actionMatch,
    filterMatch,
    frequency: /^\d+$/.test(frequency.trim()) ? Number(frequency) : frequency,
    environment: environment || null,
    owner: owner || null,
    conditions: itemsForSave(lists.conditions, catalogue.conditions),
    filters: itemsForSave(lists.filters, catalogue.filters),
    actions: itemsForSave(lists.actions, catalogue.actions),
  });
  const save = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    setNotice(undefined);
    try {
      if (rule) await api('PUT', `${props.projectPath}/rules/${enc(rule.id)}/`, body(), fieldNames);
      else await api('POST', `${props.projectPath}/rules/`, body(), fieldNames);
      props.onSaved(rule ? `Rule ${name} saved.` : `Rule ${name} created.`);
    } catch (failure) {
      setError(failure);
    }
  };
  const test = async () => {
    setError(undefined);
    setNotice(undefined);
    try {
      const { body: result } = await api<{ queued: number }>('POST', `${props.projectPath}/rule-actions/`, { actions: body().actions }, ['actions']);
      setNotice(
        result.queued === 0
          ? 'Nothing was sent: these actions name nobody to notify.'
          : `Test notification queued (${result.queued} ${result.queued === 1 ? 'message' : 'messages'}) about the project's latest issue; each is delivered in the background, and failed mail shows in the mail log.`,
      );
    } catch (failure) {
      setError(failure);
    }
  };
  const change = (list: ListName, index: number, changes: Partial<RuleItem>) =>
    setLists({ ...lists, [list]: lists[list].map((item, i) => (i === index ? { ...item, ...changes } : item)) });
  const memberOptions = props.members.filter((m) => m.user).map((m): [string, string] => [String(m.user?.id), m.email]);
  const teamOptions = props.teams.map((t): [string, string] => [String(t.id), `#${t.slug}`]);
  const environmentOptions: Array<[string, string]> = [
    ['', 'All environments'],
    ...[...new Set([...props.environments, ...(rule?.environment ? [rule.environment] : [])])].map((env): [string, string] => [env, env]),
  ];
  const ownerOptions: Array<[string, string]> = [
    ['', 'No owner'],
    ...props.teams.map((t): [string, string] => [`team:${t.id}`, `Team #${t.slug}`]),
    ...memberOptions.map(([id, email]): [string, string] => [`user:${id}`, email]),
  ];
  if (owner && !ownerOptions.some(([value]) => value === owner)) ownerOptions.push([owner, owner]);

  /** One field of an item; the mail action's recipient is picked among members or teams. */
  const itemField = (list: ListName, index: number, item: RuleItem, fieldName: string, field: FormField) => {
    const label = fieldName === 'targetType' && item.id === ASSIGNED_TO_FILTER ? 'Assigned to' : `${FIELD_LABELS[fieldName] ?? fieldName}`;
    const key = `${list}-${index}-${fieldName}`;
    const value = item[fieldName] === undefined || item[fieldName] === null ? '' : String(item[fieldName]);
    if (fieldName === 'targetIdentifier') {
      if (NOBODY_IN_PARTICULAR.includes(String(item.targetType))) return null;
      const options = item.targetType === 'Team' ? teamOptions : memberOptions;
      const withCurrent = value && !options.some(([option]) => option === value) ? [...options, [value, value] as [string, string]] : options;
      return (
        <SelectField
          key={key}
          label={item.targetType === 'Team' ? 'Team' : 'Member'}
          name={key}
          value={value}
          options={[['', 'Choose…'], ...withCurrent]}
          onChange={(next) => change(list, index, { targetIdentifier: next })}
        />
      );
    }
    if (fieldName === 'fallthroughType' && item.targetType !== 'IssueOwners') return null;
    if (field.type === 'choice') {
      const options = field.choices ?? [];
      const withCurrent = value && !options.some(([option]) => option === value) ? [...options, [value, value] as [string, string]] : options;
      return (
        <SelectField
          key={key}
          label={label}
          name={key}
          value={value}
          options={withCurrent}
          onChange={(next) =>
            change(list, index, {
              [fieldName]: next,
              ...(fieldName === 'targetType' ? { targetIdentifier: NOBODY_IN_PARTICULAR.includes(next) ? null : '' } : {}),
            })
          }
        />
      );
    }
    return (
      <Field
        key={key}
        label={label}
        name={key}
        type={fieldName === 'webhookUrl' ? 'url' : 'text'}
        value={value}
        placeholder={field.placeholder === undefined ? undefined : String(field.placeholder)}
        onInput={(next) => change(list, index, { [fieldName]: next })}
      />
    );
  };

  const itemList = (list: ListName, title: string, addLabel: string, entries: CatalogueItem[]) => (
    <fieldset class="rule-items">
      <legend>{title}</legend>
      {lists[list].map((item, index) => {
        const entry = entries.find((candidate) => candidate.id === item.id);
        const fields = entry?.formFields ?? {};
        const summary = entry ? sentence(entry.label, item, fields) : (item.name ?? item.id);
        return (
          <div key={index} class="rule-item" role="group" aria-label={`${title} ${index + 1}: ${summary}`}>
            <p>
              <strong>{summary}</strong>
            </p>
            {entry ? (
              <div class="inline-fields">{Object.entries(fields).map(([fieldName, field]) => itemField(list, index, item, fieldName, field))}</div>
            ) : (
              <p class="muted">Kept as it is: this kind is set through the API.</p>
            )}
            <button type="button" onClick={() => setLists({ ...lists, [list]: lists[list].filter((_, i) => i !== index) })}>
              Remove
            </button>
          </div>
        );
      })}
      <SelectField
        label={addLabel}
        name={`add-${list}`}
        value=""
        options={[['', 'Choose…'], ...entries.map((entry): [string, string] => [entry.id, entry.prompt ?? entry.label.replace(/\s*\{\w+\}/g, ' …')])]}
        onChange={(id) => {
          const entry = entries.find((candidate) => candidate.id === id);
          if (entry) setLists({ ...lists, [list]: [...lists[list], newItem(entry)] });
        }}
      />
      {fieldError(list) && (
        <p class="field-error" role="alert">
          {fieldError(list)}
        </p>
      )}
    </fieldset>
  );

  return (
    <Section title={rule ? `Edit rule ${rule.name}` : 'New rule'}>
      <form onSubmit={save} noValidate>
        <Field label="Name" name="name" value={name} onInput={setName} error={fieldError('name')} required />
        <div class="inline-fields">
          <SelectField
            label="Environment"
            name="environment"
            value={environment}
            onChange={setEnvironment}
            options={environmentOptions}
            error={fieldError('environment')}
          />
          <SelectField label="Owner" name="owner" value={owner} onChange={setOwner} options={ownerOptions} error={fieldError('owner')} />
        </div>
        <SelectField
          label="Conditions that must match"
          name="actionMatch"
          value={actionMatch}
          onChange={setActionMatch}
          options={MATCH_OPTIONS}
          error={fieldError('actionMatch')}
        />
        {itemList('conditions', 'When', 'Add a condition', catalogue.conditions)}
        <SelectField
          label="Filters that must match"
          name="filterMatch"
          value={filterMatch}
          onChange={setFilterMatch}
          options={MATCH_OPTIONS}
          error={fieldError('filterMatch')}
        />
        {itemList('filters', 'If', 'Add a filter', catalogue.filters)}
        {itemList('actions', 'Then', 'Add an action', catalogue.actions)}
        <Field
          label="Action interval (minutes)"
          name="frequency"
          value={frequency}
          onInput={setFrequency}
          error={fieldError('frequency')}
          hint="At most one notification per issue in this time (5 to 43200)."
        />
        {error instanceof ApiError && fieldNames.some((field) => error.field(field)) ? null : <ErrorNote error={error} />}
        <div class="actions">
          <button type="submit" class="primary">
            {rule ? 'Save rule' : 'Create rule'}
          </button>
          <button type="button" onClick={() => void test()}>
            Send test notification
          </button>
          {rule && (
            <button type="button" onClick={props.onCancel}>
              Cancel
            </button>
          )}
        </div>
      </form>
      {notice && <p role="status">{notice}</p>}
    </Section>
  );
}

interface MetricTrigger {
  id?: string;
  label: 'critical' | 'warning';
  alertThreshold: number;
  actions: Array<{ id?: string; type: string; sentryAppInstallationUuid: string; settings?: unknown }>;
}

interface MetricRule {
  id: string;
  name: string;
  aggregate: string;
  query: string;
  timeWindow: number;
  thresholdType: number;
  resolveThreshold: number | null;
  environment: string | null;
  projects: string[];
  owner: string | null;
  triggers: MetricTrigger[];
}

interface Incident {
  id: string;
  identifier: string;
  title: string;
  statusName: string;
  dateStarted: string;
  dateClosed: string | null;
  alertRule: { id: string } | null;
}

interface Installation {
  uuid: string;
  app: { slug: string; name?: string };
}

const AGGREGATES: Array<[string, string]> = [
  ['count()', 'Number of errors'],
  ['count_unique(user)', 'Users affected'],
];
const TIME_WINDOWS: Array<[string, string]> = [
  ['1', '1 minute'],
  ['5', '5 minutes'],
  ['10', '10 minutes'],
  ['15', '15 minutes'],
  ['30', '30 minutes'],
  ['60', '1 hour'],
  ['120', '2 hours'],
  ['240', '4 hours'],
  ['1440', '24 hours'],
];

/** Metric alert rules of an organization with their incidents: list, create, edit, delete. */
export function MetricAlertsPage(props: { params: Record<string, string> }) {
  const { org } = props.params;
  useTitle('Metric alerts');
  const access = useAccess(org);
  // The API asks for either scope.
  const canWrite = access.has('alerts:write') || access.has('org:write');
  const base = `/api/0/organizations/${enc(org)}`;
  const rules = useLoad(() => api<MetricRule[]>('GET', `${base}/alert-rules/`).then(({ body }) => body), [org]);
  const incidents = useLoad(() => api<Incident[]>('GET', `${base}/incidents/`).then(({ body }) => body), [org]);
  const projects = useLoad(() => api<Project[]>('GET', `${base}/projects/`).then(({ body }) => body), [org]);
  const installations = useLoad(() => api<Installation[]>('GET', `${base}/sentry-app-installations/`).then(({ body }) => body), [org]);
  const [editing, setEditing] = useState<MetricRule | null>(null);
  const [saves, setSaves] = useState(0);
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<unknown>();
  const remove = async (rule: MetricRule) => {
    if (!confirm(`Delete the metric alert ${rule.name}?`)) return;
    setError(undefined);
    try {
      await api('DELETE', `${base}/alert-rules/${enc(rule.id)}/`);
      rules.reload();
    } catch (failure) {
      setError(failure);
    }
  };
  const statusOf = (rule: MetricRule) =>
    incidents.data?.find((incident) => incident.alertRule?.id === rule.id && !incident.dateClosed)?.statusName ?? 'resolved';
  return (
    <>
      <h1>Metric alerts</h1>
      <p class="lead">
        A metric alert counts the errors (or affected users) of its projects over a time window and opens an incident when a threshold is crossed.{' '}
        <Link href={`/organizations/${org}/alerts/rules/`}>Issue alerts</Link> are set per project.
      </p>
      <Section title="Metric alert rules">
        <ErrorNote error={rules.error ?? error} />
        {rules.loading && !rules.data ? (
          <Skeleton rows={2} />
        ) : rules.data?.length ? (
          <table>
            <thead>
              <tr>
                <th scope="col">Rule</th>
                <th scope="col">Measures</th>
                <th scope="col">Status</th>
                <th scope="col">Manage</th>
              </tr>
            </thead>
            <tbody>
              {rules.data.map((rule) => (
                <tr key={rule.id}>
                  <td>
                    {rule.name}
                    <br />
                    <span class="muted">{rule.projects.join(', ')}</span>
                  </td>
                  <td>
                    {AGGREGATES.find(([value]) => value === rule.aggregate)?.[1] ?? rule.aggregate}
                    {rule.environment ? ` in ${rule.environment}` : ''}
                    {rule.query ? ` matching ${rule.query}` : ''} in{' '}
                    {TIME_WINDOWS.find(([value]) => value === String(rule.timeWindow))?.[1] ?? `${rule.timeWindow} minutes`}{' '}
                    {rule.thresholdType === 0 ? 'above' : 'below'} {rule.triggers.map((t) => `${t.alertThreshold} (${t.label})`).join(', ')}
                  </td>
                  <td>
                    <Status value={statusOf(rule)} />
                  </td>
                  <td>
                    {canWrite ? (
                      <>
                        <button
                          type="button"
                          onClick={() => {
                            setEditing(rule);
                            setNotice(undefined);
                          }}
                        >
                          Edit
                        </button>{' '}
                        <button type="button" class="danger" onClick={() => void remove(rule)}>
                          Delete
                        </button>
                      </>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p>No metric alerts yet.</p>
        )}
      </Section>
      <Section title="Incidents">
        <ErrorNote error={incidents.error} />
        {incidents.data?.length ? (
          <table>
            <thead>
              <tr>
                <th scope="col">Incident</th>
                <th scope="col">Status</th>
                <th scope="col">Started</th>
                <th scope="col">Closed</th>
              </tr>
            </thead>
            <tbody>
              {incidents.data.map((incident) => (
                <tr key={incident.id}>
                  <td>
                    #{incident.identifier} {incident.title}
                  </td>
                  <td>
                    <Status value={incident.statusName} />
                  </td>
                  <td>{formatDate(incident.dateStarted)}</td>
                  <td>{formatDate(incident.dateClosed)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p>{incidents.loading ? 'Loading…' : 'No incidents.'}</p>
        )}
      </Section>
      <NeedsScope access={access} scope="alerts:write" what="create, edit or delete metric alerts" />
      {projects.data && canWrite && (
        <MetricRuleEditor
          key={`${editing?.id ?? 'new'}:${saves}`}
          org={org}
          base={base}
          rule={editing}
          projects={projects.data}
          installations={installations.data ?? []}
          notice={notice}
          onSaved={(message) => {
            setNotice(message);
            setEditing(null);
            setSaves(saves + 1);
            rules.reload();
            incidents.reload();
          }}
          onCancel={() => setEditing(null)}
        />
      )}
    </>
  );
}

function MetricRuleEditor(props: {
  org: string;
  base: string;
  rule: MetricRule | null;
  projects: readonly Project[];
  installations: readonly Installation[];
  notice?: string;
  onSaved: (notice: string) => void;
  onCancel: () => void;
}) {
  const { rule } = props;
  const critical = rule?.triggers.find((t) => t.label === 'critical');
  const warning = rule?.triggers.find((t) => t.label === 'warning');
  const [name, setName] = useState(rule?.name ?? '');
  const [project, setProject] = useState(rule?.projects[0] ?? props.projects[0]?.slug ?? '');
  const [aggregate, setAggregate] = useState(rule?.aggregate ?? 'count()');
  const [timeWindow, setTimeWindow] = useState(String(rule?.timeWindow ?? 60));
  const [thresholdType, setThresholdType] = useState(String(rule?.thresholdType ?? 0));
  const [criticalThreshold, setCriticalThreshold] = useState(critical ? String(critical.alertThreshold) : '');
  const [warningThreshold, setWarningThreshold] = useState(warning ? String(warning.alertThreshold) : '');
  const [resolveThreshold, setResolveThreshold] = useState(
    rule?.resolveThreshold === null || rule?.resolveThreshold === undefined ? '' : String(rule.resolveThreshold),
  );
  const [installation, setInstallation] = useState(critical?.actions[0]?.sentryAppInstallationUuid ?? '');
  const [environment, setEnvironment] = useState(rule?.environment ?? '');
  const [query, setQuery] = useState(rule?.query ?? '');
  const environments = useLoad(
    () =>
      project
        ? api<Array<{ value: string }>>('GET', `/api/0/projects/${enc(props.org)}/${enc(project)}/tags/environment/values/`).then(({ body }) =>
            body.map((row) => row.value),
          )
        : Promise.resolve([]),
    [props.org, project],
  );
  const environmentOptions: Array<[string, string]> = [
    ['', 'All environments'],
    ...[...new Set([...(environments.data ?? []), ...(environment ? [environment] : [])])].map((env): [string, string] => [env, env]),
  ];
  const [error, setError] = useState<unknown>();
  const fields = ['name', 'projects', 'aggregate', 'timeWindow', 'thresholdType', 'resolveThreshold', 'triggers', 'query', 'environment'];
  const fieldError = (field: string) => (error instanceof ApiError ? error.field(field) : undefined);
  const number = (text: string) => (text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text);
  // Actions other than the one chosen here (several apps, app settings) are kept as they are.
  const triggerActions = (trigger?: MetricTrigger) => {
    if (!installation) return [];
    const existing = trigger?.actions.find((action) => action.sentryAppInstallationUuid === installation);
    return [existing ?? { type: 'sentry_app', sentryAppInstallationUuid: installation }, ...(trigger?.actions.slice(1) ?? [])];
  };
  const save = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    const triggers = [
      { ...(critical?.id ? { id: critical.id } : {}), label: 'critical', alertThreshold: number(criticalThreshold), actions: triggerActions(critical) },
      ...(warningThreshold.trim()
        ? [{ ...(warning?.id ? { id: warning.id } : {}), label: 'warning', alertThreshold: number(warningThreshold), actions: triggerActions(warning) }]
        : []),
    ];
    const body = {
      name,
      aggregate,
      query,
      dataset: 'events',
      timeWindow: Number(timeWindow),
      thresholdType: Number(thresholdType),
      resolveThreshold: resolveThreshold.trim() ? number(resolveThreshold) : null,
      environment: environment || null,
      owner: rule?.owner ?? null,
      projects: rule && rule.projects[0] === project ? rule.projects : [project],
      triggers,
    };
    try {
      if (rule) await api('PUT', `${props.base}/alert-rules/${enc(rule.id)}/`, body, fields);
      else await api('POST', `${props.base}/alert-rules/`, body, fields);
      props.onSaved(rule ? `Metric alert ${name} saved.` : `Metric alert ${name} created.`);
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <Section title={rule ? `Edit metric alert ${rule.name}` : 'New metric alert'}>
      <form onSubmit={save} noValidate>
        <Field label="Name" name="metric-name" value={name} onInput={setName} error={fieldError('name')} required />
        <div class="inline-fields">
          <SelectField
            label="Project"
            name="metric-project"
            value={project}
            onChange={setProject}
            options={props.projects.map((p): [string, string] => [p.slug, p.name || p.slug])}
            error={fieldError('projects')}
          />
          <SelectField
            label="Environment"
            name="metric-environment"
            value={environment}
            onChange={setEnvironment}
            options={environmentOptions}
            error={fieldError('environment')}
          />
          <SelectField label="Measure" name="aggregate" value={aggregate} onChange={setAggregate} options={AGGREGATES} error={fieldError('aggregate')} />
          <SelectField
            label="Time window"
            name="timeWindow"
            value={timeWindow}
            onChange={setTimeWindow}
            options={TIME_WINDOWS}
            error={fieldError('timeWindow')}
          />
          <SelectField
            label="Alert when the value is"
            name="thresholdType"
            value={thresholdType}
            onChange={setThresholdType}
            options={[
              ['0', 'above the threshold'],
              ['1', 'below the threshold'],
            ]}
          />
        </div>
        <Field
          label="Filter (optional)"
          name="metric-query"
          value={query}
          onInput={setQuery}
          error={fieldError('query')}
          placeholder="level:error"
          hint="Counts only the errors this search keeps, in issue search's syntax: environment: and level:, such as environment:prod level:[error,fatal] or !level:info."
        />
        <div class="inline-fields">
          <Field label="Critical threshold" name="critical" value={criticalThreshold} onInput={setCriticalThreshold} error={fieldError('triggers')} required />
          <Field label="Warning threshold (optional)" name="warning" value={warningThreshold} onInput={setWarningThreshold} />
          <Field
            label="Resolve threshold (optional)"
            name="resolve"
            value={resolveThreshold}
            onInput={setResolveThreshold}
            error={fieldError('resolveThreshold')}
            hint="Without one, the incident resolves as soon as no threshold is crossed."
          />
        </div>
        <SelectField
          label="Notify"
          name="installation"
          value={installation}
          onChange={setInstallation}
          options={[['', 'Nobody (the incident is only recorded)'], ...props.installations.map((i): [string, string] => [i.uuid, i.app.name ?? i.app.slug])]}
          hint="Metric alerts notify service apps that take alerts (see Integrations)."
        />
        {error instanceof ApiError && fields.some((field) => error.field(field)) ? null : <ErrorNote error={error} />}
        <div class="actions">
          <button type="submit" class="primary">
            {rule ? 'Save metric alert' : 'Create metric alert'}
          </button>
          {rule && (
            <button type="button" onClick={props.onCancel}>
              Cancel
            </button>
          )}
        </div>
      </form>
      {props.notice && <p role="status">{props.notice}</p>}
    </Section>
  );
}
