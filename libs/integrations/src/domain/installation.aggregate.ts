import { AggregateRoot, commonScopes, DomainError } from '@faultline/kernel';
import {
  type InstallationActor,
  type InstallationEvent,
  InstallationEventTypes,
  installationCreated,
  installationDeleted,
  installationScopesChanged,
  installationTokenIssued,
  installationTokenRefreshed,
  installationTokenRevoked,
  installationVerified,
} from './installation.events';

/** A grant code is single use and valid ten minutes; a token eight hours (Sentry's figures). */
export const GRANT_LIFETIME_MS = 10 * 60_000;
export const TOKEN_LIFETIME_MS = 8 * 3_600_000;

export type InstallationStatus = 'pending' | 'installed' | 'deleted';

export interface InstallationState {
  readonly uuid: string;
  readonly appId: string;
  readonly organizationId: string;
  readonly status: InstallationStatus;
  /** What the installing organization granted; every token of the installation carries these or fewer. */
  readonly scopes: readonly string[];
  /** SHA-256 of the unused grant code; null once exchanged. */
  readonly grantCodeHash: string | null;
  readonly grantExpiresAt: string | null;
  /** Every live token of the installation (uninstalling revokes them all). */
  readonly tokenIds: readonly string[];
  /** SHA-256 of the refresh token of the current refreshable token. */
  readonly refreshTokenHash: string | null;
  /** The refreshable token a refresh replaces. */
  readonly currentTokenId: string | null;
  readonly dateCreated: string;
  readonly dateUpdated: string;
}

/** A token identity just issued, as the aggregate records it. */
export interface IssuedToken {
  readonly tokenId: string;
  readonly refreshTokenHash: string | null;
  readonly expiresAt: string | null;
}

/**
 * A service app's installation on one organization: pending until verified (when the app asks
 * to verify installs), a single-use grant code exchanged once for a token, refreshes that replace
 * the token, and an uninstall that revokes every token. It decides; the tables follow its events.
 */
export class Installation extends AggregateRoot<InstallationEvent> {
  private state?: InstallationState;

  static install(input: {
    uuid: string;
    appId: string;
    organizationId: string;
    verifyInstall: boolean;
    grantCodeHash: string;
    scopes: readonly string[];
    actor: InstallationActor;
    at: string;
  }): Installation {
    const installation = new Installation();
    installation.raise(
      installationCreated({
        installationUuid: input.uuid,
        appId: input.appId,
        organizationId: input.organizationId,
        status: input.verifyInstall ? 'pending' : 'installed',
        grantCodeHash: input.grantCodeHash,
        grantExpiresAt: new Date(Date.parse(input.at) + GRANT_LIFETIME_MS).toISOString(),
        scopes: [...input.scopes].sort(),
        actor: input.actor,
        at: input.at,
      }),
    );
    return installation;
  }

  static fromHistory(history: readonly InstallationEvent[]): Installation {
    return new Installation().loadFromHistory(history);
  }

  get snapshot(): InstallationState {
    if (!this.state) throw new Error('an installation without history');
    return this.state;
  }

  /** `PUT {"status": "installed"}`: a pending install becomes installed; repeating it changes nothing. */
  verify(at: string): void {
    this.requireLive();
    if (this.snapshot.status === 'installed') return;
    this.raise(installationVerified({ installationUuid: this.snapshot.uuid, at }));
  }

  /**
   * The app's scopes became `appScopes`. What it no longer has leaves the grant at once; what it
   * gains joins only when the installing organization consents (`consented`: the app's own
   * organization, whose manager made the change holding those scopes). Answers the grant.
   */
  followAppScopes(appScopes: readonly string[], consented: boolean, at: string): readonly string[] {
    this.requireLive();
    const scopes = consented ? [...appScopes].sort() : commonScopes(this.snapshot.scopes, appScopes);
    if (scopes.join(' ') !== this.snapshot.scopes.join(' ')) this.raise(installationScopesChanged({ installationUuid: this.snapshot.uuid, scopes, at }));
    return this.snapshot.scopes;
  }

  /**
   * Exchanges the grant code (given as its hash) for `token`: the code must be this installation's,
   * unused and unexpired, else 401, as Sentry answers.
   */
  exchangeGrant(codeHash: string, token: IssuedToken, at: string): void {
    this.requireLive();
    const { grantCodeHash, grantExpiresAt } = this.snapshot;
    if (grantCodeHash === null || grantCodeHash !== codeHash) throw unauthenticated('Could not find grant for code.');
    if (grantExpiresAt !== null && Date.parse(grantExpiresAt) <= Date.parse(at)) throw unauthenticated('Grant has already expired.');
    this.raise(installationTokenIssued({ installationUuid: this.snapshot.uuid, via: 'authorization_code', ...token, at }));
  }

  /** Replaces the current token with `token`; the refresh token must be the current one's. */
  refresh(refreshTokenHash: string, token: IssuedToken & { refreshTokenHash: string; expiresAt: string }, at: string): string {
    this.requireLive();
    const { refreshTokenHash: current, currentTokenId } = this.snapshot;
    if (current === null || currentTokenId === null || current !== refreshTokenHash) throw unauthenticated('Invalid refresh token.');
    this.raise(installationTokenRefreshed({ installationUuid: this.snapshot.uuid, previousTokenId: currentTokenId, ...token, at }));
    return currentTokenId;
  }

  /** An internal app's token, minted by its organization: no expiry, no refresh. */
  mintInternalToken(tokenId: string, at: string): void {
    this.requireLive();
    this.raise(installationTokenIssued({ installationUuid: this.snapshot.uuid, via: 'internal', tokenId, refreshTokenHash: null, expiresAt: null, at }));
  }

  /** Revokes one of an internal app's minted tokens (not the OAuth token, which refreshes replace). */
  revokeToken(tokenId: string, at: string): void {
    this.requireLive();
    if (!this.snapshot.tokenIds.includes(tokenId) || tokenId === this.snapshot.currentTokenId) throw DomainError.notFound();
    this.raise(installationTokenRevoked({ installationUuid: this.snapshot.uuid, tokenId, at }));
  }

  /** Answers the tokens to revoke. */
  uninstall(actor: InstallationActor, at: string): readonly string[] {
    this.requireLive();
    const revoked = [...this.snapshot.tokenIds];
    this.raise(installationDeleted({ installationUuid: this.snapshot.uuid, revokedTokenIds: revoked, actor, at }));
    return revoked;
  }

  private requireLive(): void {
    if (this.snapshot.status === 'deleted') throw DomainError.notFound();
  }

  protected evolve(event: InstallationEvent): void {
    switch (event.type) {
      case InstallationEventTypes.InstallationCreated: {
        const data = event.data;
        this.state = {
          uuid: data.installationUuid,
          appId: data.appId,
          organizationId: data.organizationId,
          status: data.status,
          grantCodeHash: data.grantCodeHash,
          grantExpiresAt: data.grantExpiresAt,
          scopes: data.scopes ?? [],
          tokenIds: [],
          refreshTokenHash: null,
          currentTokenId: null,
          dateCreated: data.at,
          dateUpdated: data.at,
        };
        return;
      }
      case InstallationEventTypes.InstallationVerified:
        this.state = { ...this.snapshot, status: 'installed', dateUpdated: event.data.at };
        return;
      case InstallationEventTypes.InstallationScopesChanged:
        this.state = { ...this.snapshot, scopes: event.data.scopes, dateUpdated: event.data.at };
        return;
      case InstallationEventTypes.InstallationTokenIssued: {
        const data = event.data;
        const exchanged = data.via === 'authorization_code';
        this.state = {
          ...this.snapshot,
          tokenIds: [...this.snapshot.tokenIds, data.tokenId],
          ...(exchanged ? { grantCodeHash: null, grantExpiresAt: null, refreshTokenHash: data.refreshTokenHash, currentTokenId: data.tokenId } : {}),
          dateUpdated: data.at,
        };
        return;
      }
      case InstallationEventTypes.InstallationTokenRefreshed: {
        const data = event.data;
        this.state = {
          ...this.snapshot,
          tokenIds: [...this.snapshot.tokenIds.filter((id) => id !== data.previousTokenId), data.tokenId],
          refreshTokenHash: data.refreshTokenHash,
          currentTokenId: data.tokenId,
          dateUpdated: data.at,
        };
        return;
      }
      case InstallationEventTypes.InstallationTokenRevoked:
        this.state = { ...this.snapshot, tokenIds: this.snapshot.tokenIds.filter((id) => id !== event.data.tokenId), dateUpdated: event.data.at };
        return;
      case InstallationEventTypes.InstallationDeleted:
        this.state = {
          ...this.snapshot,
          status: 'deleted',
          grantCodeHash: null,
          grantExpiresAt: null,
          tokenIds: [],
          refreshTokenHash: null,
          currentTokenId: null,
          dateUpdated: event.data.at,
        };
        return;
    }
  }
}

function unauthenticated(message: string): DomainError {
  return new DomainError('unauthenticated', message);
}
