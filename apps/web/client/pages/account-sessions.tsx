import { useState } from 'preact/hooks';
import { api } from '../api';
import { ErrorNote, formatDate, Section, Skeleton, useLoad } from '../components';

interface UserSession {
  id: string;
  current: boolean;
  dateCreated: string;
  expires: string;
  ipAddress: string | null;
  browser: string | null;
}

interface LinkedIdentity {
  id: string;
  category: string;
  name: string;
  provider: { key: string; name: string };
  organization: { slug: string; name: string };
  status: 'can_disconnect' | 'needed_for_org_auth' | 'needed_for_global_auth';
  dateAdded: string;
}

const SESSIONS = '/api/0/users/me/sessions/';
const IDENTITIES = '/api/0/users/me/user-identities/';
const KEPT_BECAUSE: Record<LinkedIdentity['status'], string> = {
  can_disconnect: '',
  needed_for_org_auth: 'Needed to access the organization, which requires single sign-on.',
  needed_for_global_auth: 'Needed to sign in: set a password first to unlink it.',
};

/** The browsers signed in as this user; any but this one can be signed out from here. */
export function AccountSessions() {
  const sessions = useLoad(() => api<UserSession[]>('GET', SESSIONS).then(({ body }) => body), []);
  const [error, setError] = useState<unknown>();
  const revoke = async (session: UserSession) => {
    if (!confirm('Sign out this session? That browser will have to sign in again.')) return;
    setError(undefined);
    try {
      await api('DELETE', `${SESSIONS}${session.id}/`);
      sessions.reload();
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <Section title="Sessions">
      <ErrorNote error={error ?? sessions.error} />
      {sessions.loading && !sessions.data ? (
        <Skeleton rows={2} />
      ) : (
        <ul class="account-list">
          {sessions.data?.map((session) => (
            <li key={session.id}>
              <strong>{session.browser ?? 'Unknown browser'}</strong>
              {session.ipAddress ? ` from ${session.ipAddress}` : ''}: signed in {formatDate(session.dateCreated)}, until {formatDate(session.expires)}.{' '}
              {session.current ? (
                <em>This session</em>
              ) : (
                <button type="button" class="link-button" aria-label={`Revoke session ${session.id}`} onClick={() => revoke(session)}>
                  Revoke
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

/** The user's links to organizations' single sign-on; unlinking makes the next SSO sign-in ask to link again. */
export function LinkedIdentities() {
  const identities = useLoad(() => api<LinkedIdentity[]>('GET', IDENTITIES).then(({ body }) => body), []);
  const [error, setError] = useState<unknown>();
  const unlink = async (identity: LinkedIdentity) => {
    if (!confirm(`Unlink your ${identity.organization.name} identity? Its next single sign-on asks for your password to link again.`)) return;
    setError(undefined);
    try {
      await api('DELETE', `${IDENTITIES}${identity.category}/${identity.id}/`);
      identities.reload();
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <Section title="Linked identities">
      <ErrorNote error={error ?? identities.error} />
      {identities.loading && !identities.data ? (
        <Skeleton rows={1} />
      ) : identities.data?.length ? (
        <ul class="account-list">
          {identities.data.map((identity) => (
            <li key={`${identity.category}:${identity.id}`}>
              <strong>
                {identity.organization.name} ({identity.provider.name})
              </strong>
              : {identity.name}, linked {formatDate(identity.dateAdded)}.{' '}
              {identity.status === 'can_disconnect' ? (
                <button type="button" class="link-button" aria-label={`Unlink ${identity.organization.name}`} onClick={() => unlink(identity)}>
                  Unlink
                </button>
              ) : (
                <em>{KEPT_BECAUSE[identity.status]}</em>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p>No single sign-on identities are linked to your account.</p>
      )}
    </Section>
  );
}
