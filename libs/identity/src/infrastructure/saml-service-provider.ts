import { Inject, Injectable } from '@nestjs/common';
import { type Profile, SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import { APP_CONFIG, type AppConfig } from '@faultline/platform';
import { type AssertionConditions, refused } from '../domain/saml-sign-in';
import { IDENTITY_CONFIG, type IdentityConfig } from './identity-config';
import type { SamlProviderRow } from './sso.repository';

/** This service's addresses as one organization's SAML service provider (Sentry's URLs). */
export interface ServiceProviderUrls {
  readonly entityId: string;
  readonly acsUrl: string;
  readonly loginUrl: string;
}

type SamlProviderSettings = Pick<SamlProviderRow, 'slug' | 'idp_entity_id' | 'sso_url' | 'x509cert'>;

/** What a validly signed response says. */
export interface ValidatedSamlResponse {
  readonly conditions: AssertionConditions;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly nameId: string | undefined;
}

type ParsedAssertion = {
  Assertion?: {
    $?: { ID?: string };
    Conditions?: { $?: { NotBefore?: string; NotOnOrAfter?: string } }[];
    Subject?: { SubjectConfirmation?: { SubjectConfirmationData?: { $?: { NotOnOrAfter?: string; Recipient?: string; InResponseTo?: string } }[] }[] }[];
  };
};

/**
 * node-saml configured for one organization: it checks the XML signature against the
 * organization's certificate, the issuer and the audience (this organization's entity id). Time
 * and InResponseTo are checked by `checkAssertion` with the injected clock and the stored
 * RelayStates, so node-saml's wall clock and in-process request cache are switched off.
 */
@Injectable()
export class SamlServiceProvider {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(IDENTITY_CONFIG) private readonly identityConfig: IdentityConfig,
  ) {}

  urls(slug: string): ServiceProviderUrls {
    const base = this.config.publicUrl;
    return { entityId: `${base}/saml/metadata/${slug}/`, acsUrl: `${base}/saml/acs/${slug}/`, loginUrl: `${base}/auth/login/${slug}/` };
  }

  /** The organization's SP metadata: entity id, assertion consumer, and the AuthnRequest signing certificate when there is one. */
  metadata(provider: SamlProviderSettings): string {
    return this.saml(provider).generateServiceProviderMetadata(null, this.identityConfig.samlServiceProvider?.certificate ?? null);
  }

  /** The identity provider's address for a new AuthnRequest (HTTP-Redirect, signed when a key is configured). */
  async authorizeUrl(provider: SamlProviderSettings, requestId: string, relayState: string): Promise<string> {
    return this.saml(provider, () => requestId).getAuthorizeUrlAsync(relayState, undefined, {});
  }

  async validate(provider: SamlProviderSettings, samlResponse: string): Promise<ValidatedSamlResponse> {
    let profile: Profile | null;
    try {
      ({ profile } = await this.saml(provider).validatePostResponseAsync({ SAMLResponse: samlResponse }));
    } catch (error) {
      throw refused((error as Error).message.replace(/\.$/, '').slice(0, 200));
    }
    if (!profile) throw refused('the response carries no assertion');
    const assertion = (profile.getAssertion?.() as ParsedAssertion | undefined)?.Assertion;
    const confirmation = assertion?.Subject?.[0]?.SubjectConfirmation?.[0]?.SubjectConfirmationData?.[0]?.$;
    const inResponseTo = (typeof profile.inResponseTo === 'string' ? profile.inResponseTo : confirmation?.InResponseTo) || undefined;
    return {
      conditions: {
        assertionId: assertion?.$?.ID,
        notBefore: assertion?.Conditions?.[0]?.$?.NotBefore,
        notOnOrAfter: assertion?.Conditions?.[0]?.$?.NotOnOrAfter,
        subjectNotOnOrAfter: confirmation?.NotOnOrAfter,
        recipient: confirmation?.Recipient,
        inResponseTo,
      },
      attributes: (profile.attributes as Record<string, unknown> | undefined) ?? {},
      nameId: profile.nameID || undefined,
    };
  }

  private saml(provider: SamlProviderSettings, generateUniqueId?: () => string): SAML {
    const urls = this.urls(provider.slug);
    const signing = this.identityConfig.samlServiceProvider;
    return new SAML({
      issuer: urls.entityId,
      audience: urls.entityId,
      callbackUrl: urls.acsUrl,
      entryPoint: provider.sso_url || undefined,
      idpIssuer: provider.idp_entity_id || undefined,
      idpCert: provider.x509cert,
      wantAuthnResponseSigned: false,
      wantAssertionsSigned: true,
      acceptedClockSkewMs: -1,
      validateInResponseTo: ValidateInResponseTo.never,
      identifierFormat: null,
      disableRequestedAuthnContext: true,
      signatureAlgorithm: 'sha256',
      ...(signing ? { privateKey: signing.privateKey, publicCert: signing.certificate } : {}),
      ...(generateUniqueId ? { generateUniqueId } : {}),
    });
  }
}
