import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { FixedClock } from '@faultline/kernel';
import { startTestApp, type TestApp } from '../support/test-app';
import { IDP_ENTITY_ID, IDP_SSO_URL, identityProvider, samlFixture, samlify, signedSamlResponse } from '../support/saml-identity-provider';
import { enableScim } from '../support/scim';

const fixture = (name: string) => readFileSync(join(__dirname, '..', 'fixtures', 'saml', name), 'utf8');

/**
 * Configuring the SAML provider from the identity provider's metadata (a document or a URL),
 * then signing in with it. The URL is fetched under the webhooks' outbound address policy: this
 * app may reach 127.0.0.1 only, as WEBHOOK_ALLOWED_CIDRS says.
 */
describe('SAML metadata import', () => {
  const clock = new FixedClock(new Date('2026-03-01T10:00:00Z'));
  let app: TestApp;
  let server: Server;
  let metadataBase: string;
  const documents: Record<string, string> = {
    '/okta.xml': fixture('okta-metadata.xml'),
    '/samlify.xml': identityProvider.getMetadata(),
    '/huge.xml': `<x>${' '.repeat(300 * 1024)}</x>`,
  };

  const provider = () => app.request('GET', '/api/0/organizations/acme/auth-provider/');
  const configure = (body: Record<string, unknown>) => app.request('PUT', '/api/0/organizations/acme/auth-provider/', { body });

  beforeAll(async () => {
    server = createServer((request, response) => {
      const document = documents[request.url ?? ''];
      response.writeHead(document ? 200 : 404, { 'content-type': 'application/samlmetadata+xml' }).end(document ?? 'not found');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    metadataBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    app = await startTestApp(
      { SAML_SP_PRIVATE_KEY: samlFixture('sp.key'), SAML_SP_CERTIFICATE: samlFixture('sp.crt'), WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32' },
      { clock },
    );
    await enableScim(app);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it("takes Entra ID's metadata document and Okta's metadata URL instead of the three fields", async () => {
    const entra = await configure({ metadataXml: fixture('entra-metadata.xml') });
    expect(entra.status).toBe(200);
    expect(entra.body).toMatchObject({
      idpEntityId: 'https://sts.windows.net/72f988bf-86f1-41af-91ab-2d7cd011db47/',
      ssoUrl: 'https://login.microsoftonline.com/72f988bf-86f1-41af-91ab-2d7cd011db47/saml2',
    });
    const okta = await configure({ metadataUrl: `${metadataBase}/okta.xml` });
    expect(okta.status).toBe(200);
    expect(okta.body).toMatchObject({
      idpEntityId: 'http://www.okta.com/exk1fcia6d6EMsf2J4x7',
      ssoUrl: 'https://dev-81520334.okta.com/app/dev-81520334_faultline_1/exk1fcia6d6EMsf2J4x7/sso/saml',
    });
  });

  it('answers 400 saying why, and changes nothing, for metadata it cannot use or reach', async () => {
    const before = (await provider()).body;
    const noSso = await configure({ metadataXml: fixture('okta-metadata.xml').replace(/<md:SingleSignOnService[^>]*\/>/g, '') });
    expect(noSso.status).toBe(400);
    expect(noSso.body.detail).toBe('The metadata has no HTTP-Redirect SingleSignOnService with an http(s) Location.');
    expect((await configure({ metadataXml: '<not-closed' })).body.detail).toBe('The metadata is not well-formed XML.');
    const both = await configure({ metadataXml: fixture('okta-metadata.xml'), ssoUrl: 'https://elsewhere.test/sso' });
    expect(both.status).toBe(400);

    const missing = await configure({ metadataUrl: `${metadataBase}/missing.xml` });
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toBe('The metadata URL answered HTTP 404.');
    const huge = await configure({ metadataUrl: `${metadataBase}/huge.xml` });
    expect(huge.status).toBe(400);
    expect(huge.body.detail).toBe('The metadata is larger than 256 KB.');
    // Outside what the outbound policy allows (a loopback address not in WEBHOOK_ALLOWED_CIDRS): never fetched.
    const refused = await configure({ metadataUrl: `http://127.0.0.2:${new URL(metadataBase).port}/okta.xml` });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatch(/^The metadata URL could not be read: /);
    expect((await provider()).body).toEqual(before);
  });

  it("signs in through an identity provider configured from its own metadata (samlify's)", async () => {
    expect((await configure({ metadataUrl: `${metadataBase}/samlify.xml` })).body).toMatchObject({ idpEntityId: IDP_ENTITY_ID, ssoUrl: IDP_SSO_URL });
    const sp = samlify.ServiceProvider({ metadata: await (await fetch(`${app.baseUrl}/saml/metadata/acme/`)).text() });
    const response = await signedSamlResponse(sp, { id: '00u-meta', email: 'ada@acme.test' }, { now: clock.now() });
    const signedIn = await fetch(`${app.baseUrl}/saml/acs/acme/`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ SAMLResponse: response }).toString(),
    });
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get('location')).toBe('/organizations/acme/issues/');
  });
});
