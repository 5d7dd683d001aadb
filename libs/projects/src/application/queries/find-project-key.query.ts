/** Resolves a DSN public key for the SDK protocol; answers ProjectKeyAccess or null. */
export class FindProjectKeyQuery {
  constructor(readonly publicKey: string) {}
}

export interface ProjectKeyAccess {
  readonly keyId: string;
  readonly publicKey: string;
  readonly isActive: boolean;
  readonly projectId: string;
  readonly projectSlug: string;
  readonly organizationId: string;
  readonly rateLimit: { readonly count: number; readonly windowSeconds: number } | null;
}
