import { X509Certificate } from 'node:crypto';
import { DomainError, randomHex, sha256Hex } from '@faultline/kernel';
import { ATTRIBUTE_MAPPING_PRESETS, type AttributeMapping } from './saml-sign-in';

/** SCIM, like Sentry's, needs a business or enterprise plan. */
export const SCIM_PLANS: readonly string[] = ['business', 'enterprise'];

/** The role a member who joins by signing in gets: Sentry lets it be anything but owner. */
export const SSO_DEFAULT_ROLES = ['member', 'admin', 'manager'] as const;

export interface AuthProviderSettings {
  readonly provider: 'saml2' | 'oidc';
  readonly idpEntityId: string;
  readonly ssoUrl: string;
  readonly x509cert: string;
  readonly scimEnabled: boolean;
  readonly attributeMapping: Partial<AttributeMapping>;
  readonly attributeMappingPreset: keyof typeof ATTRIBUTE_MAPPING_PRESETS;
  readonly defaultRole: (typeof SSO_DEFAULT_ROLES)[number];
  /** OpenID Connect: the issuer (discovered at `/.well-known/openid-configuration`), the client, its secret (write-only) and scopes. */
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly scopes: string;
}

/**
 * The identity provider's signing certificate as PEM. It may arrive as PEM or as the bare base64
 * DER that metadata files hold; anything that is not an X.509 certificate is refused.
 */
export function normaliseCertificate(value: string): string {
  const body = value.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  const pem = `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END CERTIFICATE-----\n`;
  try {
    new X509Certificate(pem);
  } catch {
    throw DomainError.invalid('x509cert: not an X.509 certificate (PEM or base64 DER)', { errors: { x509cert: ['Not an X.509 certificate'] } });
  }
  return pem;
}

/** Why SCIM cannot be used in an organization, or undefined when it can. */
export function scimUnavailable(plan: string, provider: { readonly scimEnabled: boolean } | undefined): string | undefined {
  if (!SCIM_PLANS.includes(plan)) return 'SCIM requires the business or enterprise plan.';
  if (!provider) return 'SCIM requires a SAML identity provider: configure one at /api/0/organizations/{org}/auth-provider/.';
  if (!provider.scimEnabled) return 'SCIM is not enabled on the SAML identity provider: set scimEnabled to true.';
  return undefined;
}

export interface IssuedScimToken {
  /** Shown once, when SCIM is enabled; only its hash is stored. */
  readonly plaintext: string;
  readonly hash: string;
  readonly lastCharacters: string;
}

/** SCIM bearer tokens carry their own prefix: they reach only the SCIM endpoints of one organization. */
export const SCIM_TOKEN_PREFIX = 'flscim_';

export function issueScimToken(): IssuedScimToken {
  const plaintext = `${SCIM_TOKEN_PREFIX}${randomHex(32)}`;
  return { plaintext, hash: hashScimToken(plaintext), lastCharacters: plaintext.slice(-4) };
}

export const hashScimToken = (plaintext: string): string => sha256Hex(plaintext);
