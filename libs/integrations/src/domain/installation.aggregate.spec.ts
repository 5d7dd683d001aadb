import { DeciderSpecification } from '@faultline/kernel/testing';
import { GRANT_LIFETIME_MS, Installation, type InstallationState, type IssuedToken } from './installation.aggregate';
import {
  installationCreated,
  installationDeleted,
  type InstallationEvent,
  InstallationEventTypes,
  installationScopesChanged,
  installationTokenIssued,
  installationTokenRefreshed,
  installationTokenRevoked,
  installationVerified,
} from './installation.events';

const { given, creating } = DeciderSpecification.for<Installation, InstallationEvent, InstallationState>({
  fromHistory: (history) => Installation.fromHistory(history),
  snapshot: (installation) => installation.snapshot,
});

const at = (minutes: number) => new Date(Date.parse('2026-11-22T12:00:00.000Z') + minutes * 60_000).toISOString();
const GRANTED = ['project:read', 'event:write'];
const actor = { type: 'user' as const, id: '7', name: 'Jane' };
const installationUuid = 'u-1';
const token = (id: string, refresh = `refresh-${id}`): IssuedToken & { refreshTokenHash: string; expiresAt: string } => ({
  tokenId: id,
  refreshTokenHash: refresh,
  expiresAt: at(480),
});

const install =
  (verifyInstall = true, grantCodeHash = 'code-hash') =>
  () =>
    Installation.install({ uuid: installationUuid, appId: '3', organizationId: '1', verifyInstall, grantCodeHash, scopes: GRANTED, actor, at: at(0) });
const created = (verifyInstall = true, grantCodeHash = 'code-hash') =>
  installationCreated({
    installationUuid,
    appId: '3',
    organizationId: '1',
    status: verifyInstall ? 'pending' : 'installed',
    grantCodeHash,
    grantExpiresAt: at(10),
    scopes: ['event:write', 'project:read'],
    actor,
    at: at(0),
  });
const verified = (minute: number) => installationVerified({ installationUuid, at: at(minute) });
const exchanged = (tokenId: string, minute: number) =>
  installationTokenIssued({ installationUuid, via: 'authorization_code', tokenId, refreshTokenHash: `refresh-${tokenId}`, expiresAt: at(480), at: at(minute) });
const minted = (tokenId: string, minute: number) =>
  installationTokenIssued({ installationUuid, via: 'internal', tokenId, refreshTokenHash: null, expiresAt: null, at: at(minute) });
const refreshed = (previousTokenId: string, tokenId: string, minute: number) =>
  installationTokenRefreshed({ installationUuid, previousTokenId, tokenId, refreshTokenHash: `refresh-${tokenId}`, expiresAt: at(480), at: at(minute) });
const scopesChanged = (scopes: string[], minute: number) => installationScopesChanged({ installationUuid, scopes, at: at(minute) });

describe('Installation', () => {
  it('starts pending when the app verifies installs, else installed, with a grant valid ten minutes', () => {
    const pending = creating(install(true, 'h')).then([created(true, 'h')]);
    expect(pending.peekPendingEvents().map((event) => event.type)).toEqual([InstallationEventTypes.InstallationCreated]);
    expect(pending.snapshot).toMatchObject({
      status: 'pending',
      scopes: ['event:write', 'project:read'],
      grantCodeHash: 'h',
      grantExpiresAt: at(GRANT_LIFETIME_MS / 60_000),
      tokenIds: [],
    });
    expect(creating(install(false)).then([created(false)]).snapshot.status).toBe('installed');
  });

  it('verifies a pending install once; repeating it raises nothing', () => {
    const installation = given(created())
      .when((pending) => pending.verify(at(1)))
      .then([verified(1)]);
    expect(installation.snapshot.status).toBe('installed');
    given(created(), verified(1))
      .when((installed) => installed.verify(at(2)))
      .thenNothing();
  });

  it('exchanges the grant code once, for a token it records', () => {
    const installation = given(created())
      .when((pending) => pending.exchangeGrant('code-hash', token('10'), at(5)))
      .then([exchanged('10', 5)]);
    expect(installation.snapshot).toMatchObject({ grantCodeHash: null, tokenIds: ['10'], currentTokenId: '10', refreshTokenHash: 'refresh-10' });
    given(created(), exchanged('10', 5))
      .when((used) => used.exchangeGrant('code-hash', token('11'), at(6)))
      .thenError('unauthenticated', 'Could not find grant for code.');
  });

  it('refuses a wrong or expired code with 401', () => {
    given(created())
      .when((pending) => pending.exchangeGrant('other', token('10'), at(1)))
      .thenError('unauthenticated', 'Could not find grant for code.');
    given(created())
      .when((pending) => pending.exchangeGrant('code-hash', token('10'), at(10)))
      .thenError('unauthenticated', 'Grant has already expired.');
  });

  it('refreshes with the current refresh token only, replacing the current token', () => {
    const refresh = given(created(), exchanged('10', 1)).when((installation) => installation.refresh('refresh-10', token('11'), at(2)));
    expect(refresh.result).toBe('10');
    const installation = refresh.then([refreshed('10', '11', 2)]);
    expect(installation.snapshot).toMatchObject({ tokenIds: ['11'], currentTokenId: '11', refreshTokenHash: 'refresh-11' });
    given(created(), exchanged('10', 1), refreshed('10', '11', 2))
      .when((current) => current.refresh('refresh-10', token('12'), at(3)))
      .thenError('unauthenticated', 'Invalid refresh token.');
    given(created())
      .when((pending) => pending.refresh('anything', token('12'), at(3)))
      .thenError('unauthenticated', 'Invalid refresh token.');
  });

  it('uninstalls once, revoking every token, and then refuses everything as not found', () => {
    const live = [created(false), exchanged('10', 1), minted('20', 2)];
    const uninstall = given(...live).when((installation) => installation.uninstall(actor, at(3)));
    expect(uninstall.result).toEqual(['10', '20']);
    const deleted = installationDeleted({ installationUuid, revokedTokenIds: ['10', '20'], actor, at: at(3) });
    const installation = uninstall.then([deleted]);
    expect(installation.snapshot).toMatchObject({ status: 'deleted', tokenIds: [], refreshTokenHash: null });
    const notFound = 'The requested resource does not exist';
    given(...live, deleted)
      .when((gone) => gone.uninstall(actor, at(4)))
      .thenError('not_found', notFound);
    given(...live, deleted)
      .when((gone) => gone.verify(at(4)))
      .thenError('not_found', notFound);
    given(...live, deleted)
      .when((gone) => gone.refresh('refresh-10', token('30'), at(4)))
      .thenError('not_found', notFound);
  });

  it("revokes one of an internal app's minted tokens, not the OAuth token", () => {
    const live = [created(false), exchanged('10', 1), minted('20', 2)];
    const revoked = installationTokenRevoked({ installationUuid, tokenId: '20', at: at(3) });
    const installation = given(...live)
      .when((current) => current.revokeToken('20', at(3)))
      .then([revoked]);
    expect(installation.snapshot.tokenIds).toEqual(['10']);
    given(...live, revoked)
      .when((current) => current.revokeToken('20', at(4)))
      .thenError('not_found', 'The requested resource does not exist');
    given(...live, revoked)
      .when((current) => current.revokeToken('10', at(4)))
      .thenError('not_found', 'The requested resource does not exist');
  });

  it("keeps its grant when the app widens, narrows with the app, and widens only by its organization's consent", () => {
    creating(install(false, 'h')).then([created(false, 'h')]);
    const widened = given(created(false, 'h')).when((installation) =>
      installation.followAppScopes(['event:admin', 'member:admin', 'project:read'], false, at(1)),
    );
    expect(widened.result).toEqual(['event:write', 'project:read']);
    widened.thenNothing();
    const narrowed = given(created(false, 'h')).when((installation) => installation.followAppScopes(['event:read', 'org:read'], false, at(2)));
    expect(narrowed.result).toEqual(['event:read']);
    narrowed.then([scopesChanged(['event:read'], 2)]);
    const consented = given(created(false, 'h'), scopesChanged(['event:read'], 2)).when((installation) =>
      installation.followAppScopes(['org:read', 'event:read'], true, at(3)),
    );
    expect(consented.result).toEqual(['event:read', 'org:read']);
    expect(consented.then([scopesChanged(['event:read', 'org:read'], 3)]).snapshot.scopes).toEqual(['event:read', 'org:read']);
  });

  it('has granted nothing when its history predates recorded grants', () => {
    const { scopes: _granted, ...legacy } = created(false, 'h').data as { scopes?: string[] };
    expect(Installation.fromHistory([{ ...created(false, 'h'), data: legacy } as InstallationEvent]).snapshot.scopes).toEqual([]);
  });

  it('replays its history to the state its decisions reached', () => {
    const installation = given(created())
      .when((pending) => {
        pending.verify(at(1));
        pending.exchangeGrant('code-hash', token('10'), at(2));
        pending.refresh('refresh-10', token('11'), at(3));
        pending.mintInternalToken('12', at(4));
        pending.followAppScopes(['project:read'], false, at(5));
      })
      .then([verified(1), exchanged('10', 2), refreshed('10', '11', 3), minted('12', 4), scopesChanged(['project:read'], 5)]);
    expect(installation.version).toBe(6);
  });
});
