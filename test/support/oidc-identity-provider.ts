import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A person at the identity provider: the claims its ID tokens carry. */
export interface OidcPerson {
  readonly sub: string;
  readonly email: string;
  readonly email_verified: boolean;
  readonly name?: string;
}

export interface OidcTestClient {
  readonly client_id: string;
  readonly client_secret: string;
  readonly redirect_uris: readonly string[];
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * oidc-provider, a certified OpenID Connect provider, in the test process on a loopback port. Its
 * development sign-in page takes any login (the person's `sub`) and password; `people` are what it
 * vouches for. Loaded by `require` because the package ships no type declarations.
 */
export async function startOidcProvider(clients: readonly OidcTestClient[], people: Map<string, OidcPerson>) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- no declarations; typed by use here
  const module = require('oidc-provider') as { default: new (issuer: string, configuration: Record<string, unknown>) => { callback(): Handler } };
  let handler: Handler = () => undefined;
  const server = createServer((request, response) => handler(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new module.default(issuer, {
    clients: clients.map((client) => ({ ...client, grant_types: ['authorization_code'], response_types: ['code'] })),
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // The ID token carries the claims (as Entra, Google and Okta send them), not only the userinfo endpoint.
    conformIdTokenClaims: false,
    cookies: { keys: ['oidc-provider-test-cookie-key'] },
    async findAccount(_context: unknown, sub: string) {
      const person = people.get(sub);
      return person ? { accountId: sub, claims: async () => ({ ...person }) } : undefined;
    },
  });
  handler = provider.callback();
  return { issuer, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
