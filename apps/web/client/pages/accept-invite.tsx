import { useState } from 'preact/hooks';
import { api, ApiError, setCsrfToken } from '../api';
import { ErrorNote, Field, Skeleton, useLoad, useTitle } from '../components';

interface Invitation {
  organization: { slug: string; name: string };
  email: string;
  existingUser: boolean;
}

interface Joined {
  organization: string;
  organizationName: string;
  signedIn: boolean;
  csrfToken?: string;
}

const NOTICE_KEY = 'faultline.notice';

/** A message for the next page to show once (the organization a new member just joined). */
export function leaveNotice(text: string): void {
  sessionStorage.setItem(NOTICE_KEY, text);
}

/** The message left by the previous page, shown once. */
export function takeNotice(): string | undefined {
  const text = sessionStorage.getItem(NOTICE_KEY) ?? undefined;
  sessionStorage.removeItem(NOTICE_KEY);
  return text;
}

/**
 * The page an invitation link opens (`/accept/{member_id}/{token}/`): a new account chooses its
 * name and password and is signed in; an existing one gives its password, joins and signs in as
 * usual. Either way the member lands in the organization with a message.
 */
export function AcceptInvitePage(props: { path: string; signedInAs?: string }) {
  useTitle('Join an organization');
  const api0 = `/api/0/accept-invite${props.path.replace(/^\/accept/, '')}`;
  const invitation = useLoad(() => api<Invitation>('GET', api0).then(({ body }) => body), [api0]);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const invite = invitation.data;
  const join = async (event: Event) => {
    event.preventDefault();
    if (!invite) return;
    setError(undefined);
    setBusy(true);
    try {
      const body = invite.existingUser ? { password } : { name, password };
      const { body: joined } = await api<Joined>('POST', api0, body, ['name', 'password']);
      const home = `/organizations/${encodeURIComponent(joined.organization)}/issues/`;
      if (joined.signedIn) {
        setCsrfToken(joined.csrfToken);
        leaveNotice(`Welcome to ${joined.organizationName}: you are a member now.`);
        // A full load: the whole interface starts again as the new member.
        location.assign(home);
      } else {
        leaveNotice(`You joined ${joined.organizationName}. Sign in to continue.`);
        location.assign(`/auth/login/?next=${encodeURIComponent(home)}`);
      }
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };
  const fieldError = (field: string) => (error instanceof ApiError ? error.field(field) : undefined);
  return (
    <main class="sign-in" id="main">
      <h1>{invite ? `Join ${invite.organization.name}` : 'Join an organization'}</h1>
      {invitation.error ? (
        <ErrorNote error={invitation.error} />
      ) : !invite ? (
        <Skeleton rows={4} label="Loading the invitation" />
      ) : (
        <form onSubmit={join} noValidate>
          <p>
            {invite.existingUser
              ? `You have an account as ${invite.email}: give its password to join.`
              : `You were invited as ${invite.email}. Choose your name and the password you will sign in with.`}
          </p>
          {props.signedInAs && props.signedInAs.toLowerCase() !== invite.email.toLowerCase() && (
            <p class="notice">
              You are signed in as {props.signedInAs}; this invitation is for {invite.email}.
            </p>
          )}
          <Field label="E-mail address" name="email" type="email" autoComplete="username" value={invite.email} onInput={() => undefined} readOnly />
          {!invite.existingUser && <Field label="Name" name="name" autoComplete="name" value={name} onInput={setName} error={fieldError('name')} required />}
          <Field
            label="Password"
            name="password"
            type="password"
            autoComplete={invite.existingUser ? 'current-password' : 'new-password'}
            value={password}
            onInput={setPassword}
            error={fieldError('password')}
            hint={invite.existingUser ? undefined : 'At least 8 characters.'}
            required
          />
          {error instanceof ApiError && (error.field('name') || error.field('password')) ? null : <ErrorNote error={error} />}
          <button type="submit" class="primary" disabled={busy || (!invite.existingUser && !name.trim())}>
            {busy ? 'Joining…' : `Join ${invite.organization.name}`}
          </button>
        </form>
      )}
    </main>
  );
}
