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
import { type AuthProviderRow, AuthProviderRepository } from '../../../infrastructure/auth-provider.repository';
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
  ) {}

  async execute({ organizationId, plan, mode, settings, metadata }: ConfigureAuthProviderCommand): Promise<ConfiguredAuthProvider> {
    const x509cert = settings.x509cert === undefined ? undefined : normaliseCertificate(settings.x509cert);
    if (settings.scimEnabled && !SCIM_PLANS.includes(plan)) {
      throw DomainError.forbidden('SCIM requires the business or enterprise plan.');
    }
    return this.database.transaction(async (tx) => {
      const current = await this.repository.find(tx, organizationId, { lock: true });
      if (mode === 'create' && current) throw DomainError.conflict('This organization already has an auth provider.');
      if (mode === 'update' && !current) throw DomainError.notFound();
      const next = {
        provider: 'saml2' as const,
        idpEntityId: settings.idpEntityId ?? current?.idp_entity_id,
        ssoUrl: settings.ssoUrl ?? current?.sso_url,
        x509cert: x509cert ?? current?.x509cert,
        scimEnabled: settings.scimEnabled ?? current?.scim_enabled ?? false,
        attributeMapping: {
          ...(settings.attributeMappingPreset ? ATTRIBUTE_MAPPING_PRESETS[settings.attributeMappingPreset] : current?.attribute_mapping),
          ...settings.attributeMapping,
        },
        defaultRole: settings.defaultRole ?? current?.default_role ?? 'member',
      };
      if (!next.idpEntityId || !next.ssoUrl || !next.x509cert) {
        throw DomainError.invalid('idpEntityId, ssoUrl and x509cert are required');
      }
      const enabling = next.scimEnabled && !current?.scim_enabled;
      const token: IssuedScimToken | undefined = enabling ? issueScimToken() : undefined;
      const write = {
        ...next,
        idpEntityId: next.idpEntityId,
        ssoUrl: next.ssoUrl,
        x509cert: next.x509cert,
        scimToken: token ? { hash: token.hash, lastCharacters: token.lastCharacters } : next.scimEnabled ? undefined : null,
      };
      const events: DomainEvent[] = [];
      let provider: AuthProviderRow;
      if (current) {
        provider = await this.repository.update(tx, organizationId, write);
        const changes: Record<string, unknown> = {};
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
        events.push(authProviderCreated({ organizationId, provider: provider.provider, idpEntityId: provider.idp_entity_id, ssoUrl: provider.sso_url }));
      }
      if (token) events.push(scimEnabled({ organizationId, tokenLastCharacters: token.lastCharacters }));
      await this.events.record(tx, authProviderStream(organizationId), AUTH_PROVIDER_STREAM_TYPE, events, { metadata });
      // Whether the organization requires SSO is part of its cached access: seen at once in this process.
      tx.afterCommit(() => this.cache.clear());
      return { provider, ...(token ? { scimToken: token.plaintext } : {}) };
    });
  }
}
