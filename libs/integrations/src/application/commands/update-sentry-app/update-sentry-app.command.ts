import type { Scope } from '@faultline/kernel';
import type { SentryAppFields } from '../create-sentry-app/create-sentry-app.command';

/**
 * Changes an app. `status: "published"` approves a publication (instance administrators only);
 * `rotateSecret` replaces the client secret (the old one stops signing and authorizing at once).
 * New scopes must be within `editorScopes`, what the caller holds in the owning organization.
 */
export class UpdateSentryAppCommand {
  constructor(
    readonly slug: string,
    readonly userId: string | null,
    readonly editorScopes: ReadonlySet<Scope>,
    readonly isInstanceAdmin: boolean,
    readonly changes: Partial<SentryAppFields> & { readonly status?: string; readonly rotateSecret?: boolean },
  ) {}
}
