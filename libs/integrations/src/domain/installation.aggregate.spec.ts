import { DomainError } from '@faultline/kernel';
import { GRANT_LIFETIME_MS, Installation, type IssuedToken } from './installation.aggregate';
import { InstallationEventTypes } from './installation.events';

const at = (minutes: number) => new Date(Date.parse('2026-11-22T12:00:00.000Z') + minutes * 60_000).toISOString();
const GRANTED = ['project:read', 'event:write'];
const actor = { type: 'user' as const, id: '7', name: 'Jane' };
const token = (id: string, refresh = `refresh-${id}`): IssuedToken & { refreshTokenHash: string; expiresAt: string } => ({
  tokenId: id,
  refreshTokenHash: refresh,
  expiresAt: at(480),
});

function installed(verifyInstall = true): Installation {
  const installation = Installation.install({
    uuid: 'u-1',
    appId: '3',
    organizationId: '1',
    verifyInstall,
    grantCodeHash: 'code-hash',
    scopes: GRANTED,
    actor,
    at: at(0),
  });
  return Installation.fromHistory(installation.pullPendingEvents());
}

function raised(installation: Installation): string[] {
  return installation.peekPendingEvents().map((event) => event.type);
}

function errorOf(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    return error as DomainError;
  }
  throw new Error('expected an error');
}

describe('Installation', () => {
  it('starts pending when the app verifies installs, else installed, with a grant valid ten minutes', () => {
    const pending = Installation.install({
      uuid: 'u-1',
      appId: '3',
      organizationId: '1',
      verifyInstall: true,
      grantCodeHash: 'h',
      scopes: GRANTED,
      actor,
      at: at(0),
    });
    expect(raised(pending)).toEqual([InstallationEventTypes.InstallationCreated]);
    expect(pending.snapshot).toMatchObject({
      status: 'pending',
      scopes: ['event:write', 'project:read'],
      grantCodeHash: 'h',
      grantExpiresAt: at(GRANT_LIFETIME_MS / 60_000),
      tokenIds: [],
    });
    expect(installed(false).snapshot.status).toBe('installed');
  });

  it('verifies a pending install once; repeating it raises nothing', () => {
    const installation = installed();
    installation.verify(at(1));
    expect(raised(installation)).toEqual([InstallationEventTypes.InstallationVerified]);
    expect(installation.snapshot.status).toBe('installed');
    installation.pullPendingEvents();
    installation.verify(at(2));
    expect(raised(installation)).toEqual([]);
  });

  it('exchanges the grant code once, for a token it records', () => {
    const installation = installed();
    installation.exchangeGrant('code-hash', token('10'), at(5));
    expect(raised(installation)).toEqual([InstallationEventTypes.InstallationTokenIssued]);
    expect(installation.snapshot).toMatchObject({ grantCodeHash: null, tokenIds: ['10'], currentTokenId: '10', refreshTokenHash: 'refresh-10' });
    expect(errorOf(() => installation.exchangeGrant('code-hash', token('11'), at(6)))).toMatchObject({ code: 'unauthenticated' });
  });

  it('refuses a wrong or expired code with 401', () => {
    expect(errorOf(() => installed().exchangeGrant('other', token('10'), at(1)))).toMatchObject({
      code: 'unauthenticated',
      message: 'Could not find grant for code.',
    });
    expect(errorOf(() => installed().exchangeGrant('code-hash', token('10'), at(10)))).toMatchObject({
      code: 'unauthenticated',
      message: 'Grant has already expired.',
    });
  });

  it('refreshes with the current refresh token only, replacing the current token', () => {
    const installation = installed();
    installation.exchangeGrant('code-hash', token('10'), at(1));
    expect(installation.refresh('refresh-10', token('11'), at(2))).toBe('10');
    expect(installation.snapshot).toMatchObject({ tokenIds: ['11'], currentTokenId: '11', refreshTokenHash: 'refresh-11' });
    expect(errorOf(() => installation.refresh('refresh-10', token('12'), at(3)))).toMatchObject({ code: 'unauthenticated' });
    expect(errorOf(() => installed().refresh('anything', token('12'), at(3)))).toMatchObject({ code: 'unauthenticated' });
  });

  it('uninstalls once, revoking every token, and then refuses everything as not found', () => {
    const installation = installed(false);
    installation.exchangeGrant('code-hash', token('10'), at(1));
    installation.mintInternalToken('20', at(2));
    expect(installation.uninstall(actor, at(3))).toEqual(['10', '20']);
    expect(installation.snapshot).toMatchObject({ status: 'deleted', tokenIds: [], refreshTokenHash: null });
    expect(errorOf(() => installation.uninstall(actor, at(4)))).toMatchObject({ code: 'not_found' });
    expect(errorOf(() => installation.verify(at(4)))).toMatchObject({ code: 'not_found' });
    expect(errorOf(() => installation.refresh('refresh-10', token('30'), at(4)))).toMatchObject({ code: 'not_found' });
  });

  it("revokes one of an internal app's minted tokens, not the OAuth token", () => {
    const installation = installed(false);
    installation.exchangeGrant('code-hash', token('10'), at(1));
    installation.mintInternalToken('20', at(2));
    installation.revokeToken('20', at(3));
    expect(installation.snapshot.tokenIds).toEqual(['10']);
    expect(errorOf(() => installation.revokeToken('20', at(4)))).toMatchObject({ code: 'not_found' });
    expect(errorOf(() => installation.revokeToken('10', at(4)))).toMatchObject({ code: 'not_found' });
  });

  it("keeps its grant when the app widens, narrows with the app, and widens only by its organization's consent", () => {
    const installation = Installation.install({
      uuid: 'u-1',
      appId: '3',
      organizationId: '1',
      verifyInstall: false,
      grantCodeHash: 'h',
      scopes: GRANTED,
      actor,
      at: at(0),
    });
    const created = installation.pullPendingEvents();
    expect(installation.followAppScopes(['event:admin', 'member:admin', 'project:read'], false, at(1))).toEqual(['event:write', 'project:read']);
    expect(raised(installation)).toEqual([]);
    expect(installation.followAppScopes(['event:read', 'org:read'], false, at(2))).toEqual(['event:read']);
    expect(raised(installation)).toEqual([InstallationEventTypes.InstallationScopesChanged]);
    expect(installation.followAppScopes(['org:read', 'event:read'], true, at(3))).toEqual(['event:read', 'org:read']);
    expect(Installation.fromHistory([...created, ...installation.pullPendingEvents()]).snapshot.scopes).toEqual(['event:read', 'org:read']);
  });

  it('has granted nothing when its history predates recorded grants', () => {
    const [created] = Installation.install({
      uuid: 'u-1',
      appId: '3',
      organizationId: '1',
      verifyInstall: false,
      grantCodeHash: 'h',
      scopes: GRANTED,
      actor,
      at: at(0),
    }).pullPendingEvents();
    const { scopes: _granted, ...legacy } = created.data as { scopes?: string[] };
    expect(Installation.fromHistory([{ ...created, data: legacy } as typeof created]).snapshot.scopes).toEqual([]);
  });

  it('replays its history to the state its decisions reached', () => {
    const installation = installed();
    installation.verify(at(1));
    installation.exchangeGrant('code-hash', token('10'), at(2));
    installation.refresh('refresh-10', token('11'), at(3));
    installation.mintInternalToken('12', at(4));
    installation.followAppScopes(['project:read'], false, at(5));
    const history = [...installation.peekPendingEvents()];
    const decided = installation.snapshot;
    const prior = Installation.install({
      uuid: 'u-1',
      appId: '3',
      organizationId: '1',
      verifyInstall: true,
      grantCodeHash: 'code-hash',
      scopes: GRANTED,
      actor,
      at: at(0),
    }).pullPendingEvents();
    expect(Installation.fromHistory([...prior, ...history]).snapshot).toEqual(decided);
    expect(Installation.fromHistory([...prior, ...history]).version).toBe(6);
  });
});
