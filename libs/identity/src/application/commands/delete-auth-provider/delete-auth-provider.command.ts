import type { EventMetadata } from '@faultline/kernel';

/** Removes an organization's SAML provider, and with it SCIM and its token. */
export class DeleteAuthProviderCommand {
  constructor(
    readonly organizationId: string,
    readonly metadata?: EventMetadata,
  ) {}
}
