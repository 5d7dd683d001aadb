import type { EventMetadata } from '@faultline/kernel';
import type { AuthProviderSettings } from '../../../domain/auth-provider';

/**
 * Creates (`create`) or changes (`update`, only the settings given) an organization's SAML
 * provider. Turning scimEnabled on issues a SCIM token, answered once; turning it off revokes it.
 */
export class ConfigureAuthProviderCommand {
  constructor(
    readonly organizationId: string,
    readonly plan: string,
    readonly mode: 'create' | 'update',
    readonly settings: Partial<AuthProviderSettings>,
    readonly metadata?: EventMetadata,
  ) {}
}
