import { useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { Checkboxes, ErrorNote, Field, formatDate, Section, ShownOnce, Skeleton, useLoad, useTitle } from '../components';

const SCOPES = [
  'org:read',
  'org:write',
  'org:admin',
  'org:integrations',
  'member:read',
  'member:write',
  'member:admin',
  'team:read',
  'team:write',
  'team:admin',
  'project:read',
  'project:write',
  'project:admin',
  'project:releases',
  'event:read',
  'event:write',
  'event:admin',
  'alerts:read',
  'alerts:write',
];

interface Token {
  id: string;
  name: string | null;
  scopes: string[];
  tokenLastCharacters?: string;
  dateCreated: string;
  expiresAt?: string | null;
}

/** User auth tokens: `/api/0/api-tokens/`; the token is shown once, when created. */
export function ApiTokensPage() {
  useTitle('API tokens');
  const tokens = useLoad(() => api<Token[]>('GET', '/api/0/api-tokens/').then(({ body }) => body), []);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>(['project:read', 'event:read']);
  const [error, setError] = useState<unknown>();
  const [created, setCreated] = useState<string>();
  const [revokeError, setRevokeError] = useState<unknown>();

  const create = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    try {
      const { body } = await api<{ token: string }>('POST', '/api/0/api-tokens/', { name, scopes }, ['name', 'scopes']);
      setCreated(body.token);
      setName('');
      tokens.reload();
    } catch (failure) {
      setError(failure);
    }
  };
  const revoke = async (token: Token) => {
    if (!confirm(`Revoke the token ${token.name ?? token.id}? Programs using it stop working.`)) return;
    setRevokeError(undefined);
    try {
      await api('DELETE', `/api/0/api-tokens/${token.id}/`);
      tokens.reload();
    } catch (failure) {
      setRevokeError(failure);
    }
  };
  const fieldError = (field: string) => (error instanceof ApiError ? error.field(field) : undefined);

  return (
    <>
      <h1>Personal API tokens</h1>
      <p class="lead">Tokens act for you with the scopes you give them, limited by your role in each organization.</p>
      <Section title="Create a token">
        <form onSubmit={create} noValidate>
          <Field label="Name" name="name" value={name} onInput={setName} error={fieldError('name')} />
          <Checkboxes legend="Scopes" name="scopes" options={SCOPES} selected={scopes} onChange={setScopes} error={fieldError('scopes')} />
          {error instanceof ApiError && Object.keys(error.fields).length ? null : <ErrorNote error={error} />}
          <button type="submit" class="primary">
            Create token
          </button>
        </form>
        {created && <ShownOnce label="Your new token" value={created} />}
      </Section>
      <Section title="Tokens">
        <ErrorNote error={tokens.error ?? revokeError} />
        {tokens.loading && !tokens.data ? (
          <Skeleton rows={3} />
        ) : tokens.data?.length ? (
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Token</th>
                <th scope="col">Scopes</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.data.map((token) => (
                <tr key={token.id}>
                  <td>{token.name ?? '—'}</td>
                  <td>
                    <code>…{token.tokenLastCharacters ?? ''}</code>
                  </td>
                  <td class="scopes">{token.scopes.join(', ')}</td>
                  <td>{formatDate(token.dateCreated)}</td>
                  <td>
                    <button type="button" class="danger" onClick={() => revoke(token)} aria-label={`Revoke ${token.name ?? `token ${token.id}`}`}>
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p class="empty">No tokens yet.</p>
        )}
      </Section>
    </>
  );
}
