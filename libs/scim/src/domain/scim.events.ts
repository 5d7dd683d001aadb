import { domainEvent } from '@faultline/kernel';

/** The SCIM context's own facts: an organization's SAML provider and whether SCIM is on. */
export const ScimEventTypes = {
  AuthProviderCreated: 'scim.AuthProviderCreated',
  AuthProviderUpdated: 'scim.AuthProviderUpdated',
  AuthProviderDeleted: 'scim.AuthProviderDeleted',
  ScimEnabled: 'scim.ScimEnabled',
  ScimDisabled: 'scim.ScimDisabled',
} as const;

export const authProviderStream = (organizationId: string): string => `auth-provider-${organizationId}`;
export const AUTH_PROVIDER_STREAM_TYPE = 'auth-provider';

export const authProviderCreated = (data: { organizationId: string; provider: string; idpEntityId: string; ssoUrl: string }) =>
  domainEvent(ScimEventTypes.AuthProviderCreated, data);

export const authProviderUpdated = (data: { organizationId: string; changes: Record<string, unknown> }) =>
  domainEvent(ScimEventTypes.AuthProviderUpdated, data);

export const authProviderDeleted = (data: { organizationId: string }) => domainEvent(ScimEventTypes.AuthProviderDeleted, data);

/** A new SCIM token was issued (only its last characters are recorded). */
export const scimEnabled = (data: { organizationId: string; tokenLastCharacters: string }) => domainEvent(ScimEventTypes.ScimEnabled, data);

export const scimDisabled = (data: { organizationId: string }) => domainEvent(ScimEventTypes.ScimDisabled, data);
