import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, enc } from '../api';
import { ErrorNote, Field, NeedsScope, Section, SelectField, Skeleton, useAccess, useLoad, useTitle } from '../components';
import { type Invite, InviteLink, PendingInvites } from './organization';

interface NotificationOption {
  type: 'alerts' | 'workflow';
  value: string;
}

const OPTION_LABELS: Record<NotificationOption['type'], { label: string; hint: string; values: Array<[string, string]> }> = {
  alerts: {
    label: 'Alerts',
    hint: 'Mail from alert rules that name you or your team.',
    values: [
      ['always', 'On'],
      ['never', 'Off'],
    ],
  },
  workflow: {
    label: 'Workflow',
    hint: 'Mail when an issue is assigned to you or your team, and about comments and regressions of issues you take part in.',
    values: [
      ['always', 'On'],
      ['subscribe_only', 'Only issues I take part in'],
      ['never', 'Off'],
    ],
  },
};

/** The signed-in user's notification options (`/api/0/users/me/notification-options/`). */
export function NotificationSettingsPage() {
  useTitle('Notifications');
  const options = useLoad(() => api<NotificationOption[]>('GET', '/api/0/users/me/notification-options/').then(({ body }) => body), []);
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState<string>();
  const change = async (type: NotificationOption['type'], value: string) => {
    setError(undefined);
    setSaved(undefined);
    try {
      await api('PUT', '/api/0/users/me/notification-options/', { type, value, scopeType: 'user' });
      setSaved(`${OPTION_LABELS[type].label} mail: ${OPTION_LABELS[type].values.find(([v]) => v === value)?.[1] ?? value}`);
      options.reload();
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <>
      <h1>Notifications</h1>
      <p class="lead">Which mail Faultline sends you. Every mail also has a link that turns its kind off.</p>
      <Section title="E-mail">
        <ErrorNote error={options.error ?? error} />
        {options.loading && !options.data ? (
          <Skeleton rows={2} />
        ) : (
          options.data?.map((option) => (
            <SelectField
              key={option.type}
              label={OPTION_LABELS[option.type].label}
              name={option.type}
              value={option.value}
              options={OPTION_LABELS[option.type].values}
              hint={OPTION_LABELS[option.type].hint}
              onChange={(value) => void change(option.type, value)}
            />
          ))
        )}
        {saved && <p role="status">Saved. {saved}</p>}
      </Section>
    </>
  );
}

interface Team {
  slug: string;
  name: string;
}

/** Invites people by e-mail (`POST /api/0/organizations/{org}/members/`), sends invitations again or revokes them. */
export function InviteMembersPage(props: { params: Record<string, string> }) {
  const { org } = props.params;
  useTitle('Invite members');
  const teams = useLoad(() => api<Team[]>('GET', `/api/0/organizations/${enc(org)}/teams/`).then(({ body }) => body), [org]);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('member');
  const [team, setTeam] = useState('');
  const [error, setError] = useState<unknown>();
  const access = useAccess(org);
  const [created, setCreated] = useState<Invite>();
  const [notice, setNotice] = useState<string>();

  const invite = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    setNotice(undefined);
    try {
      const { body } = await api<Invite>('POST', `/api/0/organizations/${enc(org)}/members/`, { email, orgRole: role, teams: team ? [team] : [] }, [
        'email',
        'orgRole',
        'teams',
      ]);
      setCreated(body);
      setNotice(`Invitation sent to ${body.email}.`);
      setEmail('');
    } catch (failure) {
      setError(failure);
    }
  };
  const fieldError = (field: string) => (error instanceof ApiError ? error.field(field) : undefined);
  return (
    <>
      <h1>Invite members</h1>
      <p class="lead">
        The invitee gets a mail with a link, valid for 7 days, where they choose a name and password and join. The link is shown here too, to pass on yourself
        when the instance sends no mail.
      </p>
      <Section title="Invite">
        <form onSubmit={invite} noValidate>
          <Field label="E-mail" name="email" type="email" value={email} onInput={setEmail} error={fieldError('email')} required />
          <SelectField
            label="Role"
            name="orgRole"
            value={role}
            onChange={setRole}
            error={fieldError('orgRole')}
            options={[
              ['member', 'Member'],
              ['admin', 'Admin'],
              ['manager', 'Manager'],
              ['owner', 'Owner'],
              ['billing', 'Billing'],
            ]}
          />
          <SelectField
            label="Team"
            name="teams"
            value={team}
            onChange={setTeam}
            error={fieldError('teams')}
            options={[['', 'No team'], ...(teams.data ?? []).map((t): [string, string] => [t.slug, t.name])]}
          />
          {error instanceof ApiError && Object.keys(error.fields).length ? null : <ErrorNote error={error} />}
          <button type="submit" class="primary" disabled={!access.has('member:write')}>
            Send invitation
          </button>
          <NeedsScope access={access} scope="member:write" what="invite members" />
        </form>
        {notice && <p role="status">{notice}</p>}
        {created && <InviteLink invite={created} />}
      </Section>
      <PendingInvites org={org} access={access} reloadKey={created} />
    </>
  );
}

const IDS = {
  firstSeen: 'sentry.rules.conditions.first_seen_event.FirstSeenEventCondition',
  regression: 'sentry.rules.conditions.regression_event.RegressionEventCondition',
  everyEvent: 'sentry.rules.conditions.every_event.EveryEventCondition',
  email: 'sentry.mail.actions.NotifyEmailAction',
  webhooks: 'sentry.rules.actions.notify_event.NotifyEventAction',
};

const CHAT_ACTIONS: Array<[string, string]> = [
  ['faultline.rules.actions.notify_chat.SlackWebhookAction', 'Slack'],
  ['faultline.rules.actions.notify_chat.DiscordWebhookAction', 'Discord'],
  ['faultline.rules.actions.notify_chat.MsTeamsWebhookAction', 'Microsoft Teams'],
  ['faultline.rules.actions.notify_chat.MattermostWebhookAction', 'Mattermost'],
];

interface RuleAction {
  id: string;
  targetType?: string;
  targetIdentifier?: string | number | null;
  fallthroughType?: string;
  webhookUrl?: string;
}

interface Rule {
  id: string;
  name: string;
  actionMatch: string;
  frequency: number;
  conditions: Array<{ id: string }>;
  actions: RuleAction[];
}

interface Project {
  slug: string;
  name: string;
}

interface Member {
  email: string;
  user: { id: string } | null;
}

const emptyAction = (): RuleAction => ({ id: IDS.email, targetType: 'IssueOwners', fallthroughType: 'AllMembers' });

function describeAction(action: RuleAction, members: readonly Member[]): string {
  if (action.id === IDS.webhooks) return 'Service hooks';
  if (action.id === IDS.email) {
    if (action.targetType === 'Member')
      return `Mail ${members.find((m) => m.user?.id === String(action.targetIdentifier))?.email ?? `user ${action.targetIdentifier}`}`;
    if (action.targetType === 'Team') return `Mail team ${action.targetIdentifier}`;
    return `Mail the project's members${action.fallthroughType === 'NoOne' ? ' (no one)' : ''}`;
  }
  const chat = CHAT_ACTIONS.find(([id]) => id === action.id);
  return chat ? `${chat[1]} message` : action.id;
}

/** Issue alert rules of a project with their mail and chat actions: list, create, edit, delete, send a test notification. */
export function AlertRulesPage(props: { params: Record<string, string> }) {
  const { org } = props.params;
  useTitle('Alert rules');
  const projects = useLoad(() => api<Project[]>('GET', `/api/0/organizations/${enc(org)}/projects/`).then(({ body }) => body), [org]);
  const members = useLoad(() => api<Member[]>('GET', `/api/0/organizations/${enc(org)}/members/`).then(({ body }) => body), [org]);
  const [project, setProject] = useState('');
  useEffect(() => {
    if (!project && projects.data?.[0]) setProject(projects.data[0].slug);
  }, [projects.data]);
  const rulesPath = `/api/0/projects/${enc(org)}/${enc(project)}/rules/`;
  const rules = useLoad(() => (project ? api<Rule[]>('GET', rulesPath).then(({ body }) => body) : Promise.resolve([])), [org, project]);
  const [editing, setEditing] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [condition, setCondition] = useState(IDS.firstSeen);
  const [frequency, setFrequency] = useState('30');
  const [actions, setActions] = useState<RuleAction[]>([emptyAction()]);
  const [error, setError] = useState<unknown>();
  const [notice, setNotice] = useState<string>();

  const reset = () => {
    setEditing(null);
    setName('');
    setCondition(IDS.firstSeen);
    setFrequency('30');
    setActions([emptyAction()]);
  };
  const edit = (rule: Rule) => {
    setEditing(rule.id);
    setName(rule.name);
    setCondition(rule.conditions[0]?.id ?? IDS.everyEvent);
    setFrequency(String(rule.frequency));
    setActions(rule.actions.map((action) => ({ ...action })));
    setNotice(undefined);
  };
  const body = () => ({ name, actionMatch: 'all', frequency: Number(frequency), conditions: [{ id: condition }], actions });
  const save = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    setNotice(undefined);
    try {
      if (editing) await api('PUT', `${rulesPath}${enc(editing)}/`, body(), ['name', 'frequency', 'actions']);
      else await api('POST', rulesPath, body(), ['name', 'frequency', 'actions']);
      setNotice(editing ? 'Rule saved.' : 'Rule created.');
      reset();
      rules.reload();
    } catch (failure) {
      setError(failure);
    }
  };
  const test = async () => {
    setError(undefined);
    setNotice(undefined);
    try {
      const { body: result } = await api<{ queued: number }>('POST', `/api/0/projects/${enc(org)}/${enc(project)}/rule-actions/`, { actions }, ['actions']);
      setNotice(`Test notification sent (${result.queued} ${result.queued === 1 ? 'message' : 'messages'}), about the project's latest issue.`);
    } catch (failure) {
      setError(failure);
    }
  };
  const remove = async (rule: Rule) => {
    if (!confirm(`Delete the rule ${rule.name}?`)) return;
    setError(undefined);
    try {
      await api('DELETE', `${rulesPath}${enc(rule.id)}/`);
      rules.reload();
    } catch (failure) {
      setError(failure);
    }
  };
  const update = (index: number, change: Partial<RuleAction>) => setActions(actions.map((action, i) => (i === index ? { ...action, ...change } : action)));
  const memberOptions = (members.data ?? []).filter((m) => m.user).map((m): [string, string] => [String(m.user?.id), m.email]);
  const fieldError = (field: string) => (error instanceof ApiError ? error.field(field) : undefined);

  return (
    <>
      <h1>Alert rules</h1>
      <SelectField
        label="Project"
        name="project"
        value={project}
        onChange={setProject}
        options={(projects.data ?? []).map((p): [string, string] => [p.slug, p.name || p.slug])}
      />
      <Section title="Rules">
        <ErrorNote error={projects.error ?? rules.error} />
        {rules.loading && !rules.data ? (
          <Skeleton rows={3} />
        ) : rules.data?.length ? (
          <table>
            <thead>
              <tr>
                <th scope="col">Rule</th>
                <th scope="col">Actions</th>
                <th scope="col">Interval</th>
                <th scope="col">
                  <span class="visually-hidden">Change</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rules.data.map((rule) => (
                <tr key={rule.id}>
                  <td>{rule.name}</td>
                  <td>{rule.actions.map((action) => describeAction(action, members.data ?? [])).join(', ')}</td>
                  <td>{rule.frequency} min</td>
                  <td>
                    <button type="button" onClick={() => edit(rule)}>
                      Edit
                    </button>{' '}
                    <button type="button" class="danger" onClick={() => void remove(rule)}>
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p>No rules yet.</p>
        )}
      </Section>
      <Section title={editing ? 'Edit rule' : 'New rule'}>
        <form onSubmit={save} noValidate>
          <Field label="Name" name="name" value={name} onInput={setName} error={fieldError('name')} required />
          <SelectField
            label="When"
            name="condition"
            value={condition}
            onChange={setCondition}
            options={[
              [IDS.firstSeen, 'A new issue is created'],
              [IDS.regression, 'A resolved issue comes back'],
              [IDS.everyEvent, 'Every event'],
            ]}
          />
          <Field
            label="Action interval (minutes)"
            name="frequency"
            value={frequency}
            onInput={setFrequency}
            error={fieldError('frequency')}
            hint="At most one notification per issue in this time (5 to 43200)."
          />
          <fieldset>
            <legend>Then</legend>
            {actions.map((action, index) => (
              <div key={index}>
                <SelectField
                  label={`Action ${index + 1}`}
                  name={`action-${index}`}
                  value={action.id}
                  onChange={(id) =>
                    update(
                      index,
                      id === IDS.email
                        ? emptyAction()
                        : { id, webhookUrl: action.webhookUrl ?? '', targetType: undefined, targetIdentifier: undefined, fallthroughType: undefined },
                    )
                  }
                  options={[
                    [IDS.email, 'Send an e-mail'],
                    ...CHAT_ACTIONS.map(([id, label]): [string, string] => [id, `Send a ${label} message`]),
                    [IDS.webhooks, "Call the project's service hooks"],
                  ]}
                />
                {action.id === IDS.email && (
                  <>
                    <SelectField
                      label="To"
                      name={`target-${index}`}
                      value={action.targetType ?? 'IssueOwners'}
                      onChange={(targetType) =>
                        update(index, {
                          targetType,
                          targetIdentifier: targetType === 'Member' ? (memberOptions[0]?.[0] ?? '') : targetType === 'Team' ? '' : null,
                        })
                      }
                      options={[
                        ['IssueOwners', "The project's members"],
                        ['Member', 'A member'],
                        ['Team', 'A team (by id)'],
                      ]}
                    />
                    {action.targetType === 'Member' && (
                      <SelectField
                        label="Member"
                        name={`member-${index}`}
                        value={String(action.targetIdentifier ?? '')}
                        onChange={(targetIdentifier) => update(index, { targetIdentifier })}
                        options={memberOptions}
                      />
                    )}
                    {action.targetType === 'Team' && (
                      <Field
                        label="Team id"
                        name={`team-${index}`}
                        value={String(action.targetIdentifier ?? '')}
                        onInput={(targetIdentifier) => update(index, { targetIdentifier })}
                      />
                    )}
                  </>
                )}
                {CHAT_ACTIONS.some(([id]) => id === action.id) && (
                  <Field
                    label="Incoming webhook URL"
                    name={`webhook-${index}`}
                    type="url"
                    value={action.webhookUrl ?? ''}
                    onInput={(webhookUrl) => update(index, { webhookUrl })}
                  />
                )}
                {actions.length > 1 && (
                  <button type="button" onClick={() => setActions(actions.filter((_, i) => i !== index))}>
                    Remove action {index + 1}
                  </button>
                )}
              </div>
            ))}
            <button type="button" onClick={() => setActions([...actions, emptyAction()])}>
              Add an action
            </button>
          </fieldset>
          <FieldErrorNote error={error} />
          <button type="submit" class="primary">
            {editing ? 'Save rule' : 'Create rule'}
          </button>{' '}
          <button type="button" onClick={() => void test()} disabled={!project}>
            Send test notification
          </button>
          {editing && (
            <>
              {' '}
              <button type="button" onClick={reset}>
                Cancel
              </button>
            </>
          )}
        </form>
        {notice && <p role="status">{notice}</p>}
      </Section>
    </>
  );
}

/** The form's error unless a field shows it. */
function FieldErrorNote(props: { error: unknown }) {
  const shownByField = props.error instanceof ApiError && ['name', 'frequency'].some((field) => props.error instanceof ApiError && props.error.field(field));
  return shownByField ? null : <ErrorNote error={props.error} />;
}
