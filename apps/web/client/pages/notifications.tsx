import { useState } from 'preact/hooks';
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
