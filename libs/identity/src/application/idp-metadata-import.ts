import { Injectable } from '@nestjs/common';
import { DomainError } from '@faultline/kernel';
import { OutboundHttpClients } from '@faultline/platform';
import { type IdpMetadata, parseIdpMetadata, SAML_METADATA_LIMITS } from '../domain/saml-metadata';

export interface MetadataSource {
  metadataUrl?: string;
  metadataXml?: string;
}

const invalid = (field: keyof MetadataSource, message: string) => new DomainError('invalid', message, { [field]: [message] });

/**
 * Reads an identity provider's entity id, SSO URL and certificate from its metadata, given as a
 * document or as a URL. The URL is the tenant's, so it is fetched as webhooks are: under the
 * outbound address policy, without redirects, within a deadline and a size cap.
 */
@Injectable()
export class IdpMetadataImport {
  constructor(private readonly clients: OutboundHttpClients) {}

  /** The provider's settings with the metadata's three fields filled in; without metadata, as given. */
  async resolve<T extends MetadataSource & Partial<IdpMetadata>>(settings: T): Promise<Omit<T, keyof MetadataSource>> {
    const { metadataUrl, metadataXml, ...rest } = settings;
    if (metadataUrl === undefined && metadataXml === undefined) return rest;
    const field: keyof MetadataSource = metadataUrl !== undefined ? 'metadataUrl' : 'metadataXml';
    if (metadataUrl !== undefined && metadataXml !== undefined) throw invalid(field, 'Give metadataUrl or metadataXml, not both.');
    if (rest.idpEntityId !== undefined || rest.ssoUrl !== undefined || rest.x509cert !== undefined)
      throw invalid(field, 'Give the metadata or idpEntityId, ssoUrl and x509cert, not both.');
    const xml = metadataXml ?? (await this.fetch(metadataUrl!));
    const parsed = parseIdpMetadata(xml);
    if ('error' in parsed) throw invalid(field, parsed.error);
    return { ...rest, ...parsed };
  }

  private async fetch(url: string): Promise<string> {
    const client = this.clients.open(SAML_METADATA_LIMITS.fetchTimeoutMs, SAML_METADATA_LIMITS.maxChars + 1);
    try {
      const response = await client.get(url, { accept: 'application/samlmetadata+xml, application/xml, text/xml' });
      if (response.statusCode < 200 || response.statusCode > 299) throw invalid('metadataUrl', `The metadata URL answered HTTP ${response.statusCode}.`);
      if (response.truncated) throw invalid('metadataUrl', `The metadata is larger than ${SAML_METADATA_LIMITS.maxChars / 1024} KB.`);
      return response.body;
    } catch (error) {
      if (error instanceof DomainError) throw error;
      throw invalid('metadataUrl', `The metadata URL could not be read: ${client.describeError(error).message}.`);
    } finally {
      await client.close();
    }
  }
}
