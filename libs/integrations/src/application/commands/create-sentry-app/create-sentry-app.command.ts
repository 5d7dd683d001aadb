import type { Scope } from '@faultline/kernel';

export interface SentryAppFields {
  readonly name: string;
  readonly isInternal: boolean;
  readonly webhookUrl: string | null;
  readonly redirectUrl: string | null;
  readonly verifyInstall: boolean;
  readonly scopes: readonly string[];
  readonly events: readonly string[];
  readonly isAlertable: boolean;
  readonly schema: unknown;
  readonly allowedOrigins: readonly string[];
  readonly webhookHeaders: readonly string[];
  readonly overview: string | null;
  readonly author: string | null;
}

/**
 * Creates a service app owned by an organization; an internal one is installed on it at once. Its
 * scopes are within `creatorScopes`, what the caller holds in that organization.
 */
export class CreateSentryAppCommand {
  constructor(
    readonly organization: { readonly id: string; readonly slug: string },
    readonly userId: string | null,
    readonly creatorScopes: ReadonlySet<Scope>,
    readonly fields: SentryAppFields,
  ) {}
}
