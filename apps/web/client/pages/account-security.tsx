import { useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { ErrorNote, Field, formatDate, Section, Skeleton, useLoad, useTitle } from '../components';
import { AccountSessions, LinkedIdentities } from './account-sessions';
import { SecurityKeys, type SecurityKeysAuthenticator } from './security-keys';

interface Authenticator {
  id: string;
  type: 'totp' | 'recovery' | 'u2f';
  name: string;
  description: string;
  createdAt: string;
  lastUsedAt: string | null;
  codesRemaining?: number;
  devices?: SecurityKeysAuthenticator['devices'];
}

interface Enrolment {
  secret: string;
  qrcodeSvg: string;
}

const AUTHENTICATORS = '/api/0/users/me/authenticators/';

function RecoveryCodes(props: { codes: readonly string[] }) {
  return (
    <div class="shown-once" role="status">
      <p>
        <strong>Recovery codes</strong> (shown once: keep them somewhere safe; each signs in once without the app):
      </p>
      <pre class="secret" tabIndex={0}>
        {props.codes.join('\n')}
      </pre>
    </div>
  );
}

/** Two-factor authentication of the signed-in user (an authenticator app, security keys and recovery codes), its sessions and SSO links. */
export function AccountSecurityPage() {
  useTitle('Account security');
  const authenticators = useLoad(() => api<Authenticator[]>('GET', AUTHENTICATORS).then(({ body }) => body), []);
  const [enrolment, setEnrolment] = useState<Enrolment>();
  const [code, setCode] = useState('');
  const [codes, setCodes] = useState<readonly string[]>();
  const [error, setError] = useState<unknown>();
  const act = async (step: () => Promise<void>) => {
    setError(undefined);
    try {
      await step();
    } catch (failure) {
      setError(failure);
    }
  };
  const start = () => act(async () => setEnrolment((await api<Enrolment>('GET', `${AUTHENTICATORS}totp/enroll/`)).body));
  const enrol = (event: Event) => {
    event.preventDefault();
    return act(async () => {
      const { body } = await api<{ recoveryCodes: string[] }>('POST', `${AUTHENTICATORS}totp/enroll/`, { secret: enrolment?.secret, otp: code }, ['otp']);
      setEnrolment(undefined);
      setCode('');
      setCodes(body.recoveryCodes);
      authenticators.reload();
    });
  };
  const regenerate = (id: string) =>
    act(async () => {
      setCodes((await api<{ codes: string[] }>('PUT', `${AUTHENTICATORS}${id}/`)).body.codes);
      authenticators.reload();
    });
  const remove = (id: string) =>
    act(async () => {
      if (!confirm('Turn off two-factor authentication? Signing in will take only your password.')) return;
      await api('DELETE', `${AUTHENTICATORS}${id}/`);
      setCodes(undefined);
      authenticators.reload();
    });

  const app = authenticators.data?.find((authenticator) => authenticator.type === 'totp');
  const recovery = authenticators.data?.find((authenticator) => authenticator.type === 'recovery');
  const keys = authenticators.data?.find((authenticator) => authenticator.type === 'u2f');
  return (
    <>
      <h1>Account security</h1>
      {codes ? <RecoveryCodes codes={codes} /> : null}
      <ErrorNote error={error instanceof ApiError && error.field('otp') ? undefined : error} />
      <Section title="Two-factor authentication">
        {authenticators.loading && !authenticators.data ? (
          <Skeleton rows={2} />
        ) : app ? (
          <dl class="facts">
            <dt>{app.name}</dt>
            <dd>
              Enrolled {formatDate(app.createdAt)}
              {app.lastUsedAt ? `, last used ${formatDate(app.lastUsedAt)}` : ''}.{' '}
              <button type="button" class="link-button" onClick={() => remove(app.id)}>
                Remove
              </button>
            </dd>
          </dl>
        ) : enrolment ? (
          <form onSubmit={enrol} noValidate>
            <p>Scan this code with an authenticator app (such as Google Authenticator, 1Password or Authy), then enter the code it shows.</p>
            {/* The SVG is drawn by the server's QR code library from the otpauth URI: markup of ours, not user input. */}
            <div class="qr-code" dangerouslySetInnerHTML={{ __html: enrolment.qrcodeSvg }} />
            <p>
              Or enter this key by hand: <code class="secret">{enrolment.secret}</code>
            </p>
            <Field
              label="Code"
              name="otp"
              autoComplete="one-time-code"
              value={code}
              onInput={setCode}
              error={error instanceof ApiError ? error.field('otp') : undefined}
              required
            />
            <button type="submit" class="primary">
              Turn on
            </button>
          </form>
        ) : (
          <>
            <p>Protect your account with a code from an authenticator app as well as your password.</p>
            <button type="button" class="primary" onClick={start}>
              Set up an authenticator app
            </button>
          </>
        )}
      </Section>
      <Section title="Security keys">
        {authenticators.loading && !authenticators.data ? (
          <Skeleton rows={1} />
        ) : (
          <SecurityKeys
            authenticator={keys && keys.devices ? { id: keys.id, devices: keys.devices } : undefined}
            onChanged={authenticators.reload}
            onRecoveryCodes={setCodes}
            onError={setError}
          />
        )}
      </Section>
      {recovery ? (
        <Section title="Recovery codes">
          <p>
            {recovery.codesRemaining} of 10 unused.{' '}
            <button type="button" class="link-button" onClick={() => regenerate(recovery.id)}>
              Make new codes
            </button>
          </p>
        </Section>
      ) : null}
      <AccountSessions />
      <LinkedIdentities />
    </>
  );
}
