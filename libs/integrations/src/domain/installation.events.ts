import type { Actor } from '@faultline/identity';
import { type DomainEvent, domainEvent } from '@faultline/kernel';

/**
 * An installation's stream: the facts of its life from install to uninstall. Payloads are
 * JSON-safe and carry their time, so a replay gives the same state. Secrets appear only as their
 * SHA-256 (grant codes, refresh tokens), as the tables keep them.
 */
export const InstallationEventTypes = {
  InstallationCreated: 'integrations.InstallationCreated',
  InstallationVerified: 'integrations.InstallationVerified',
  InstallationScopesChanged: 'integrations.InstallationScopesChanged',
  InstallationTokenIssued: 'integrations.InstallationTokenIssued',
  InstallationTokenRefreshed: 'integrations.InstallationTokenRefreshed',
  InstallationTokenRevoked: 'integrations.InstallationTokenRevoked',
  InstallationDeleted: 'integrations.InstallationDeleted',
} as const;

export const INSTALLATION_STREAM_TYPE = 'sentry_app_installation';
export const installationStream = (uuid: string): string => `sentry-app-installation-${uuid}`;

/** Who installed or uninstalled: identity's actor shape. */
export type InstallationActor = Actor;

export type InstallationCreatedData = {
  readonly installationUuid: string;
  readonly appId: string;
  readonly organizationId: string;
  /** `pending` when the app verifies installs, else `installed`. */
  readonly status: 'pending' | 'installed';
  readonly grantCodeHash: string;
  readonly grantExpiresAt: string;
  /**
   * The scopes the installing organization granted: the app's when it was installed. Absent from
   * installations recorded before grants were; the migration that added grants appended an
   * InstallationScopesChanged with the app's scopes to each of those.
   */
  readonly scopes?: readonly string[];
  readonly actor: InstallationActor;
  readonly at: string;
};

export type InstallationVerifiedData = { readonly installationUuid: string; readonly at: string };

/** The installation's granted scopes became `scopes` (the app narrowed, or its own organization changed it). */
export type InstallationScopesChangedData = { readonly installationUuid: string; readonly scopes: readonly string[]; readonly at: string };

export type InstallationTokenIssuedData = {
  readonly installationUuid: string;
  readonly tokenId: string;
  /** `authorization_code` consumes the grant; `internal` is an internal app's minted token. */
  readonly via: 'authorization_code' | 'internal';
  readonly refreshTokenHash: string | null;
  readonly expiresAt: string | null;
  readonly at: string;
};

export type InstallationTokenRefreshedData = {
  readonly installationUuid: string;
  readonly tokenId: string;
  readonly previousTokenId: string;
  readonly refreshTokenHash: string;
  readonly expiresAt: string;
  readonly at: string;
};

export type InstallationTokenRevokedData = {
  readonly installationUuid: string;
  readonly tokenId: string;
  readonly at: string;
};

export type InstallationDeletedData = {
  readonly installationUuid: string;
  readonly revokedTokenIds: readonly string[];
  readonly actor: InstallationActor;
  readonly at: string;
};

type T = typeof InstallationEventTypes;
export type InstallationEvent =
  | DomainEvent<T['InstallationCreated'], InstallationCreatedData>
  | DomainEvent<T['InstallationVerified'], InstallationVerifiedData>
  | DomainEvent<T['InstallationScopesChanged'], InstallationScopesChangedData>
  | DomainEvent<T['InstallationTokenIssued'], InstallationTokenIssuedData>
  | DomainEvent<T['InstallationTokenRefreshed'], InstallationTokenRefreshedData>
  | DomainEvent<T['InstallationTokenRevoked'], InstallationTokenRevokedData>
  | DomainEvent<T['InstallationDeleted'], InstallationDeletedData>;

const json = <D>(data: D): D => JSON.parse(JSON.stringify(data)) as D;

export const installationCreated = (data: InstallationCreatedData) => domainEvent(InstallationEventTypes.InstallationCreated, json(data));
export const installationVerified = (data: InstallationVerifiedData) => domainEvent(InstallationEventTypes.InstallationVerified, json(data));
export const installationScopesChanged = (data: InstallationScopesChangedData) => domainEvent(InstallationEventTypes.InstallationScopesChanged, json(data));
export const installationTokenIssued = (data: InstallationTokenIssuedData) => domainEvent(InstallationEventTypes.InstallationTokenIssued, json(data));
export const installationTokenRefreshed = (data: InstallationTokenRefreshedData) => domainEvent(InstallationEventTypes.InstallationTokenRefreshed, json(data));
export const installationTokenRevoked = (data: InstallationTokenRevokedData) => domainEvent(InstallationEventTypes.InstallationTokenRevoked, json(data));
export const installationDeleted = (data: InstallationDeletedData) => domainEvent(InstallationEventTypes.InstallationDeleted, json(data));
