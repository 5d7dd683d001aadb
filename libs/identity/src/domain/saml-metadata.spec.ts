import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IDP_ENTITY_ID, IDP_SSO_URL, identityProvider, samlFixture } from '../../../../test/support/saml-identity-provider';
import { parseIdpMetadata, SAML_METADATA_LIMITS } from './saml-metadata';

const fixture = (name: string) => readFileSync(join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'saml', name), 'utf8');
const certificateBody = samlFixture('idp.crt')
  .split('\n')
  .filter((line) => !line.startsWith('-----'))
  .join('');

describe('parseIdpMetadata', () => {
  it("reads Okta's metadata: the HTTP-Redirect SSO URL, not the POST one", () => {
    expect(parseIdpMetadata(fixture('okta-metadata.xml'))).toEqual({
      idpEntityId: 'http://www.okta.com/exk1fcia6d6EMsf2J4x7',
      ssoUrl: 'https://dev-81520334.okta.com/app/dev-81520334_faultline_1/exk1fcia6d6EMsf2J4x7/sso/saml',
      x509cert: certificateBody,
    });
  });

  it("reads Entra ID's federation metadata: the IdP's certificate, not the document signature's or the WS-Federation role's", () => {
    expect(parseIdpMetadata(fixture('entra-metadata.xml'))).toEqual({
      idpEntityId: 'https://sts.windows.net/72f988bf-86f1-41af-91ab-2d7cd011db47/',
      ssoUrl: 'https://login.microsoftonline.com/72f988bf-86f1-41af-91ab-2d7cd011db47/saml2',
      x509cert: certificateBody,
    });
  });

  it("reads samlify's identity provider metadata", () => {
    expect(parseIdpMetadata(identityProvider.getMetadata())).toEqual({ idpEntityId: IDP_ENTITY_ID, ssoUrl: IDP_SSO_URL, x509cert: certificateBody });
  });

  it('says what is missing', () => {
    const okta = fixture('okta-metadata.xml');
    expect(parseIdpMetadata(okta.replace(/<md:SingleSignOnService Binding="[^"]*HTTP-Redirect"[^>]*\/>/, ''))).toEqual({
      error: 'The metadata has no HTTP-Redirect SingleSignOnService with an http(s) Location.',
    });
    expect(parseIdpMetadata(okta.replace(/<md:KeyDescriptor[\s\S]*<\/md:KeyDescriptor>/, ''))).toEqual({
      error: 'The metadata has no signing certificate (KeyDescriptor with an X509Certificate).',
    });
    expect(parseIdpMetadata(okta.replace(' entityID="http://www.okta.com/exk1fcia6d6EMsf2J4x7"', ''))).toEqual({
      error: 'The identity provider in the metadata has no entityID.',
    });
    expect(parseIdpMetadata(okta.replaceAll('IDPSSODescriptor', 'SPSSODescriptor'))).toEqual({
      error: 'The metadata describes no identity provider (no EntityDescriptor with an IDPSSODescriptor).',
    });
  });

  it('refuses what is not metadata: broken XML, entity declarations, oversized documents', () => {
    expect(parseIdpMetadata('<md:EntityDescriptor')).toEqual({ error: 'The metadata is not well-formed XML.' });
    expect(parseIdpMetadata('not xml at all')).toEqual({ error: 'The metadata is not well-formed XML.' });
    expect(parseIdpMetadata('<!DOCTYPE x [<!ENTITY a "aaaa">]><x>&a;</x>')).toEqual({ error: 'The metadata must not contain a document type declaration.' });
    expect(parseIdpMetadata(`<x>${' '.repeat(SAML_METADATA_LIMITS.maxChars)}</x>`)).toEqual({ error: 'The metadata is larger than 256 KB.' });
  });
});
