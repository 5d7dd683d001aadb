import { useState } from 'preact/hooks';
import { api, ApiError, setCsrfToken } from '../api';
import { ErrorNote, Field, useTitle } from '../components';

export function SignInPage(props: { onSignedIn: () => void }) {
  useTitle('Sign in');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<ApiError | unknown>();
  const [busy, setBusy] = useState(false);
  const [organization, setOrganization] = useState('');
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const { body } = await api<{ csrfToken: string }>('POST', '/api/0/auth/login/', { username: email, password }, ['username', 'password']);
      setCsrfToken(body.csrfToken);
      props.onSignedIn();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const fieldError = (name: string) => (error instanceof ApiError ? error.field(name) : undefined);
  return (
    <main class="sign-in" id="main">
      <h1>Sign in to Faultline</h1>
      <form onSubmit={submit} noValidate>
        <Field
          label="E-mail address"
          name="username"
          type="email"
          autoComplete="username"
          value={email}
          onInput={setEmail}
          error={fieldError('username')}
          required
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onInput={setPassword}
          error={fieldError('password')}
          required
        />
        {error instanceof ApiError && (error.field('username') || error.field('password')) ? null : <ErrorNote error={error} />}
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <h2>Single sign-on</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          // The organization's own sign-in page, served by the server, starts its SSO.
          if (organization.trim()) location.assign(`/auth/login/${encodeURIComponent(organization.trim().toLowerCase())}/`);
        }}
      >
        <Field label="Organization" name="organization" autoComplete="organization" value={organization} onInput={setOrganization} required />
        <button type="submit">Continue with SSO</button>
      </form>
    </main>
  );
}
