import { openTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import { hashSsoSecret, issueSsoSecret, RELAY_STATE_TTL_MS } from '../domain/saml-sign-in';
import { SsoRepository } from './sso.repository';

/** The OpenID Connect state as kept in SAML's RelayState table: hashed, single-use, expiring, one protocol's. */
describe('SsoRepository: OpenID Connect state', () => {
  const now = new Date('2030-03-01T10:00:00Z');
  const repository = new SsoRepository();
  let db: TestDatabase;
  let organizationId: string;

  beforeAll(async () => {
    db = await openTestDatabase();
    [{ id: organizationId }] = await db.database.query<{ id: string }>(
      `INSERT INTO identity.organizations (slug, name) VALUES ('states', 'States') RETURNING id::text`,
    );
  });

  afterAll(async () => {
    await db?.close();
  });

  const issue = async (protocol: 'saml2' | 'oidc', at = now) => {
    const state = issueSsoSecret(at, RELAY_STATE_TTL_MS);
    await repository.insertRelayState(db.database, {
      hash: state.hash,
      organizationId,
      requestId: hashSsoSecret('nonce'),
      expiresAt: state.expiresAt,
      protocol,
    });
    return state;
  };

  it('stores only the hash, and answers the organization and nonce hash once, even to concurrent callbacks', async () => {
    const state = await issue('oidc');
    const stored = await db.database.query<{ token_hash: string }>(`SELECT token_hash FROM identity.sso_relay_states WHERE organization_id = $1`, [
      organizationId,
    ]);
    expect(stored.map((row) => row.token_hash)).toEqual([state.hash]);
    expect(JSON.stringify(stored)).not.toContain(state.value);
    const spent = await Promise.all([0, 1, 2].map(() => db.database.transaction((tx) => repository.consumeOidcState(tx, hashSsoSecret(state.value), now))));
    expect(spent.filter(Boolean)).toEqual([{ organizationId, nonceHash: hashSsoSecret('nonce') }]);
  });

  it('refuses (and spends) an expired state and a SAML RelayState', async () => {
    const expired = await issue('oidc', new Date(now.getTime() - RELAY_STATE_TTL_MS - 1));
    expect(await repository.consumeOidcState(db.database, expired.hash, now)).toBeUndefined();
    const saml = await issue('saml2');
    expect(await repository.consumeOidcState(db.database, saml.hash, now)).toBeUndefined();
    expect(await repository.consumeRelayState(db.database, saml.hash, organizationId, now)).toBeUndefined();
    // An OpenID Connect state is no RelayState for the SAML consumer either.
    const oidc = await issue('oidc');
    expect(await repository.consumeRelayState(db.database, oidc.hash, organizationId, now)).toBeUndefined();
  });

  it('is swept once expired', async () => {
    await issue('oidc', new Date(now.getTime() - 2 * RELAY_STATE_TTL_MS));
    await repository.pruneExpired(db.database, now);
    const [{ count }] = await db.database.query<{ count: string }>(`SELECT count(*) FROM identity.sso_relay_states WHERE expires_at <= $1`, [now]);
    expect(count).toBe('0');
  });
});
