import { type PublicKeyCredentialRequestOptionsJSON, startAuthentication } from '@simplewebauthn/browser';
import { useState } from 'preact/hooks';
import { api, ApiError, setCsrfToken } from '../api';
import { ErrorNote, Field, useTitle } from '../components';

type SignedIn = { csrfToken: string } | { twoFactorRequired: true; challenge: string; interfaces?: string[] };

export function SignInPage(props: { onSignedIn: () => void; notice?: string }) {
  useTitle('Sign in');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  /** Set once the password was right for a user with a second factor. */
  const [challenge, setChallenge] = useState<string>();
  const [interfaces, setInterfaces] = useState<readonly string[]>([]);
  const [error, setError] = useState<ApiError | unknown>();
  const [busy, setBusy] = useState(false);
  const [organization, setOrganization] = useState('');
  const attempt = async (event: Event, step: () => Promise<void>) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await step();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const signIn = (event: Event) =>
    attempt(event, async () => {
      const { body } = await api<SignedIn>('POST', '/api/0/auth/login/', { username: email, password }, ['username', 'password']);
      if ('twoFactorRequired' in body) {
        setChallenge(body.challenge);
        setInterfaces(body.interfaces ?? ['totp']);
        return;
      }
      setCsrfToken(body.csrfToken);
      props.onSignedIn();
    });
  const secondStep = async (answer: { otp: string } | { webauthn: unknown }) => {
    try {
      const { body } = await api<{ csrfToken: string }>('POST', '/api/0/auth/2fa/', { challenge, ...answer }, ['otp']);
      setCsrfToken(body.csrfToken);
      props.onSignedIn();
    } catch (failure) {
      // A spent or expired sign-in starts again from the password.
      if (failure instanceof ApiError && failure.status === 401 && failure.detail.startsWith('This sign-in has expired')) {
        setChallenge(undefined);
        setCode('');
      }
      throw failure;
    }
  };
  const confirm = (event: Event) => attempt(event, () => secondStep({ otp: code }));
  const signWithKey = (event: Event) =>
    attempt(event, async () => {
      const { body } = await api<{ webAuthnAuthenticationData: PublicKeyCredentialRequestOptionsJSON }>('POST', '/api/0/auth/2fa/webauthn/', { challenge });
      let signature: unknown;
      try {
        signature = await startAuthentication({ optionsJSON: body.webAuthnAuthenticationData });
      } catch {
        throw new ApiError(400, 'The security key did not answer. Try again, or enter a code.', {});
      }
      await secondStep({ webauthn: signature });
    });
  const fieldError = (name: string) => (error instanceof ApiError ? error.field(name) : undefined);
  if (challenge) {
    return (
      <main class="sign-in" id="main">
        <h1>Two-factor authentication</h1>
        {interfaces.includes('u2f') ? (
          <form onSubmit={signWithKey}>
            <p>Use your security key, or enter a code below.</p>
            <button type="submit" class="primary" disabled={busy}>
              Use security key
            </button>
          </form>
        ) : null}
        <p>
          {interfaces.includes('totp')
            ? 'Enter the code your authenticator app shows, or one of your recovery codes.'
            : 'Without the key, enter one of your recovery codes.'}
        </p>
        <form onSubmit={confirm} noValidate>
          <Field label="Code" name="otp" autoComplete="one-time-code" value={code} onInput={setCode} error={fieldError('otp')} required />
          {fieldError('otp') ? null : <ErrorNote error={error} />}
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Checking…' : 'Continue'}
          </button>
        </form>
      </main>
    );
  }
  return (
    <main class="sign-in" id="main">
      <h1>Sign in to Faultline</h1>
      {props.notice && (
        <p class="shown-once" role="status">
          {props.notice}
        </p>
      )}
      <form onSubmit={signIn} noValidate>
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
