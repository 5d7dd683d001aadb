import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type DomainEvent, DomainError } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { AuthCache } from '../../../infrastructure/auth-cache';
import { ATTRIBUTE_MAPPING_PRESETS } from '../../../domain/saml-sign-in';
import { type IssuedScimToken, issueScimToken, normaliseCertificate, SCIM_PLANS } from '../../../domain/auth-provider';
import {
  AUTH_PROVIDER_STREAM_TYPE,
  authProviderCreated,
  authProviderStream,
  authProviderUpdated,
  scimDisabled,
  scimEnabled,
} from '../../../domain/auth-provider.events';
import { type AuthProviderRow, AuthProviderRepository, type AuthProviderWrite } from '../../../infrastructure/auth-provider.repository';
import { normaliseScopes } from '../../../domain/oidc-sign-in';
import { OidcRelyingParty } from '../../../infrastructure/oidc-relying-party';
import { ConfigureAuthProviderCommand } from './configure-auth-provider.command';

export interface ConfiguredAuthProvider {
  readonly provider: AuthProviderRow;
  /** The SCIM bearer token, when this change enabled SCIM: shown this once. */
  readonly scimToken?: string;
}

@CommandHandler(ConfigureAuthProviderCommand)
export class ConfigureAuthProviderHandler implements ICommandHandler<ConfigureAuthProviderCommand, ConfiguredAuthProvider> {
  constructor(
    private readonly database: Database,
    private readonly repository: AuthProviderRepository,
    private readonly events: EventRecorder,
    private readonly cache: AuthCache,
    private readonly relyingParty: OidcRelyingParty,
  ) {}

  /** A new issuer is discovered before it is stored, so that a wrong or unreachable one is refused with its reason. */
  private async discover(issuer: string, clientId = 'discovery', clientSecret = 'discovery'): Promise<void> {
    try {
      await this.relyingParty.configuration({ issuer, client_id: clientId, client_secret: clientSecret }, { fresh: true });
    } catch (error) {
      const reason = error instanceof Error ? error.message.replace(/^OpenID Connect sign-in refused: /, '') : String(error);
      throw DomainError.invalid(`issuer: ${reason}`, { errors: { issuer: [reason] } });
    }
  }

  async execute({ organizationId, plan, mode, settings, metadata }: ConfigureAuthProviderCommand): Promise<ConfiguredAuthProvider> {
    const x509cert = settings.x509cert === undefined ? undefined : normaliseCertificate(settings.x509cert);
    if (settings.scimEnabled && !SCIM_PLANS.includes(plan)) {
      throw DomainError.forbidden('SCIM requires the business or enterprise plan.');
    }
    if (settings.issuer !== undefined) await this.discover(settings.issuer, settings.clientId, settings.clientSecret);
    return this.database.transaction(async (tx) => {
      const current = await this.repository.find(tx, organizationId, { lock: true });
      if (mode === 'create' && current) throw DomainError.conflict('This organization already has an auth provider.');
      if (mode === 'update' && !current) throw DomainError.notFound();
      const kind = settings.provider ?? current?.provider ?? 'saml2';
      const common = {
        scimEnabled: settings.scimEnabled ?? current?.scim_enabled ?? false,
        attributeMapping: {
          ...(settings.attributeMappingPreset ? ATTRIBUTE_MAPPING_PRESETS[settings.attributeMappingPreset] : current?.attribute_mapping),
          ...settings.attributeMapping,
        },
        defaultRole: settings.defaultRole ?? current?.default_role ?? 'member',
      };
      const enabling = common.scimEnabled && !current?.scim_enabled;
      const token: IssuedScimToken | undefined = enabling ? issueScimToken() : undefined;
      const scimToken = token ? { hash: token.hash, lastCharacters: token.lastCharacters } : common.scimEnabled ? undefined : null;
      const same = current?.provider === kind ? current : undefined;
      let write: AuthProviderWrite;
      if (kind === 'oidc') {
        const issuer = settings.issuer ?? same?.oidc_issuer;
        const clientId = settings.clientId ?? same?.oidc_client_id;
        if (!issuer || !clientId || (!settings.clientSecret && !same?.oidc_client_secret_set)) {
          throw DomainError.invalid('issuer, clientId and clientSecret are required for an OpenID Connect provider');
        }
        write = {
          ...common,
          scimToken,
          provider: kind,
          issuer,
          clientId,
          clientSecret: settings.clientSecret,
          scopes: normaliseScopes(settings.scopes ?? same?.oidc_scopes ?? undefined),
        };
      } else {
        const idpEntityId = settings.idpEntityId ?? same?.idp_entity_id;
        const ssoUrl = settings.ssoUrl ?? same?.sso_url;
        const certificate = x509cert ?? same?.x509cert;
        if (!idpEntityId || !ssoUrl || !certificate) throw DomainError.invalid('idpEntityId, ssoUrl and x509cert are required');
        write = { ...common, scimToken, provider: kind, idpEntityId, ssoUrl, x509cert: certificate };
      }
      const events: DomainEvent[] = [];
      let provider: AuthProviderRow;
      if (current) {
        provider = await this.repository.update(tx, organizationId, write);
        const changes: Record<string, unknown> = {};
        if (provider.provider !== current.provider) changes.provider = provider.provider;
        if (provider.oidc_issuer !== current.oidc_issuer) changes.issuer = provider.oidc_issuer;
        if (provider.oidc_client_id !== current.oidc_client_id) changes.clientId = provider.oidc_client_id;
        if (write.provider === 'oidc' && write.clientSecret) changes.clientSecret = 'changed';
        if (provider.oidc_scopes !== current.oidc_scopes) changes.scopes = provider.oidc_scopes;
        if (provider.idp_entity_id !== current.idp_entity_id) changes.idpEntityId = provider.idp_entity_id;
        if (provider.sso_url !== current.sso_url) changes.ssoUrl = provider.sso_url;
        if (provider.x509cert !== current.x509cert) changes.x509cert = 'changed';
        if (JSON.stringify(provider.attribute_mapping) !== JSON.stringify(current.attribute_mapping)) changes.attributeMapping = provider.attribute_mapping;
        if (provider.default_role !== current.default_role) changes.defaultRole = provider.default_role;
        if (Object.keys(changes).length) events.push(authProviderUpdated({ organizationId, changes }));
        if (current.scim_enabled && !provider.scim_enabled) events.push(scimDisabled({ organizationId }));
      } else {
        provider = await this.repository.insert(tx, organizationId, write);
        if (!provider) throw DomainError.conflict('This organization already has an auth provider.');
        events.push(
          authProviderCreated({
            organizationId,
            provider: provider.provider,
            ...(provider.provider === 'oidc'
              ? { issuer: provider.oidc_issuer ?? '', clientId: provider.oidc_client_id ?? '' }
              : { idpEntityId: provider.idp_entity_id ?? '', ssoUrl: provider.sso_url ?? '' }),
          }),
        );
      }
      if (token) events.push(scimEnabled({ organizationId, tokenLastCharacters: token.lastCharacters }));
      await this.events.record(tx, authProviderStream(organizationId), AUTH_PROVIDER_STREAM_TYPE, events, { metadata });
      // Whether the organization requires SSO is part of its cached access: seen at once in this process.
      tx.afterCommit(() => this.cache.clear());
      return { provider, ...(token ? { scimToken: token.plaintext } : {}) };
    });
  }
}
