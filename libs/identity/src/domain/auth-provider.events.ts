import { domainEvent } from '@faultline/kernel';

/** An organization's sign-in provider and whether SCIM is on. The type strings keep their `scim.` prefix: events already stored carry them. */
export const AuthProviderEventTypes = {
  AuthProviderCreated: 'scim.AuthProviderCreated',
  AuthProviderUpdated: 'scim.AuthProviderUpdated',
  AuthProviderDeleted: 'scim.AuthProviderDeleted',
  ScimEnabled: 'scim.ScimEnabled',
  ScimDisabled: 'scim.ScimDisabled',
} as const;

export const authProviderStream = (organizationId: string): string => `auth-provider-${organizationId}`;
export const AUTH_PROVIDER_STREAM_TYPE = 'auth-provider';

export const authProviderCreated = (data: {
  organizationId: string;
  provider: string;
  idpEntityId?: string;
  ssoUrl?: string;
  issuer?: string;
  clientId?: string;
}) => domainEvent(AuthProviderEventTypes.AuthProviderCreated, data);

export const authProviderUpdated = (data: { organizationId: string; changes: Record<string, unknown> }) =>
  domainEvent(AuthProviderEventTypes.AuthProviderUpdated, data);

export const authProviderDeleted = (data: { organizationId: string }) => domainEvent(AuthProviderEventTypes.AuthProviderDeleted, data);

/** A new SCIM token was issued (only its last characters are recorded). */
export const scimEnabled = (data: { organizationId: string; tokenLastCharacters: string }) => domainEvent(AuthProviderEventTypes.ScimEnabled, data);

export const scimDisabled = (data: { organizationId: string }) => domainEvent(AuthProviderEventTypes.ScimDisabled, data);
