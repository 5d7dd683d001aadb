import { startRegistration } from '@simplewebauthn/browser';
import { useState } from 'preact/hooks';
import { api, ApiError, enc } from '../api';
import { Field, formatDate } from '../components';

export interface SecurityKeysAuthenticator {
  id: string;
  devices: Array<{ key_handle: string; name: string; timestamp: string; lastUsedAt: string | null }>;
}

const AUTHENTICATORS = '/api/0/users/me/authenticators/';

/** The user's security keys (WebAuthn): add one (named), rename or remove each. */
export function SecurityKeys(props: {
  authenticator: SecurityKeysAuthenticator | undefined;
  onChanged: () => void;
  onRecoveryCodes: (codes: readonly string[]) => void;
  onError: (error: unknown) => void;
}) {
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [renaming, setRenaming] = useState<{ keyHandle: string; name: string }>();
  const act = async (step: () => Promise<void>) => {
    props.onError(undefined);
    setBusy(true);
    try {
      await step();
    } catch (failure) {
      props.onError(failure);
    } finally {
      setBusy(false);
    }
  };
  const add = (event: Event) => {
    event.preventDefault();
    return act(async () => {
      const { body } = await api<{ challenge: { webAuthnRegisterData: string } }>('GET', `${AUTHENTICATORS}u2f/enroll/`);
      let response: unknown;
      try {
        response = await startRegistration({ optionsJSON: JSON.parse(atob(body.challenge.webAuthnRegisterData)) });
      } catch {
        throw new ApiError(400, 'The security key did not answer, or it is enrolled already. Try again.', {});
      }
      const enrolled = await api<{ recoveryCodes: string[] }>('POST', `${AUTHENTICATORS}u2f/enroll/`, {
        deviceName: name,
        response: JSON.stringify(response),
      });
      setName('');
      if (enrolled.body.recoveryCodes.length > 0) props.onRecoveryCodes(enrolled.body.recoveryCodes);
      props.onChanged();
    });
  };
  const path = (keyHandle: string) => `${AUTHENTICATORS}${props.authenticator?.id}/${enc(keyHandle)}/`;
  const rename = (event: Event) => {
    event.preventDefault();
    return act(async () => {
      if (!renaming) return;
      await api('PUT', path(renaming.keyHandle), { name: renaming.name }, ['name']);
      setRenaming(undefined);
      props.onChanged();
    });
  };
  const remove = (keyHandle: string, keyName: string) =>
    act(async () => {
      if (!confirm(`Remove the security key "${keyName}"?`)) return;
      await api('DELETE', path(keyHandle));
      props.onChanged();
    });

  const keys = props.authenticator?.devices ?? [];
  return (
    <>
      {keys.length > 0 ? (
        <ul class="security-keys">
          {keys.map((key) => (
            <li key={key.key_handle}>
              {renaming?.keyHandle === key.key_handle ? (
                <form onSubmit={rename}>
                  <Field label="Key name" name="name" value={renaming.name} onInput={(value) => setRenaming({ ...renaming, name: value })} required />
                  <button type="submit" class="primary" disabled={busy}>
                    Save
                  </button>{' '}
                  <button type="button" onClick={() => setRenaming(undefined)}>
                    Cancel
                  </button>
                </form>
              ) : (
                <>
                  <strong>{key.name}</strong>: added {formatDate(key.timestamp)}
                  {key.lastUsedAt ? `, last used ${formatDate(key.lastUsedAt)}` : ''}.{' '}
                  <button
                    type="button"
                    class="link-button"
                    aria-label={`Rename ${key.name}`}
                    onClick={() => setRenaming({ keyHandle: key.key_handle, name: key.name })}
                  >
                    Rename
                  </button>{' '}
                  <button type="button" class="link-button" aria-label={`Remove ${key.name}`} onClick={() => remove(key.key_handle, key.name)}>
                    Remove
                  </button>
                </>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p>Sign in with a hardware key (such as a YubiKey) or your device's built-in authenticator.</p>
      )}
      <form onSubmit={add}>
        <Field label="New key's name" name="deviceName" value={name} onInput={setName} placeholder="e.g. YubiKey 5" />
        <button type="submit" disabled={busy}>
          {busy ? 'Waiting for the key…' : 'Add a security key'}
        </button>
      </form>
    </>
  );
}
