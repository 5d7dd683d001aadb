import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * samlify, a real SAML identity provider, for the tests. It is loaded by `require` with the few
 * types the tests use, because its own declarations pull the DOM library (through @xmldom/xmldom's
 * `reference lib="dom"`) into the whole program, whose Node types then clash with it.
 */
export interface SamlifyServiceProvider {
  readonly entityMeta: { getEntityID(): string; getAssertionConsumerService(binding: 'post'): string; isAuthnRequestSigned(): boolean };
}

export interface SamlifyIdentityProvider {
  getMetadata(): string;
  createLoginResponse(
    sp: SamlifyServiceProvider,
    requestInfo: { extract: { request: { id: string } } },
    binding: 'post',
    user: { email: string },
    customTagReplacement: (template: string) => { id: string; context: string },
  ): Promise<{ context: string }>;
  parseLoginRequest(
    sp: SamlifyServiceProvider,
    binding: 'redirect',
    request: { query: Record<string, string>; octetString: string },
  ): Promise<{ extract: { request: { id: string } } }>;
}

export interface Samlify {
  setSchemaValidator(validator: { validate: (xml: string) => Promise<string> }): void;
  IdentityProvider(settings: Record<string, unknown>): SamlifyIdentityProvider;
  ServiceProvider(settings: { metadata: string }): SamlifyServiceProvider;
  SamlLib: { replaceTagsByValue(template: string, values: Record<string, string>): string };
  Constants: {
    namespace: { binding: { redirect: string }; format: { emailAddress: string } };
    StatusCode: { Success: string };
  };
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above: typed here instead
export const samlify: Samlify = require('samlify');

// The IdP checks nothing against the SAML schema here; node-saml on the service's side does the checking.
samlify.setSchemaValidator({ validate: async () => 'skipped' });

// Compiled for a benchmark, this file runs from dist/test/support/; the fixtures stay in test/.
const FIXTURES = join(__dirname, __dirname.includes(join('dist', 'test')) ? join('..', '..', '..', 'test') : '..', 'fixtures', 'saml');

/** The test key pairs (test/fixtures/saml): the IdP's, and the service provider's for signed AuthnRequests. */
export const samlFixture = (name: 'idp.key' | 'idp.crt' | 'sp.key' | 'sp.crt'): string => readFileSync(join(FIXTURES, name), 'utf8');

export const IDP_ENTITY_ID = 'https://idp.example.test/metadata';
// http: the browser test's IdP page posts to the test app over http, which Chromium allows only from http.
export const IDP_SSO_URL = 'http://idp.example.test/sso';

/** A real SAML identity provider (samlify) signing with its own key, as Okta or Entra would. */
export const identityProvider: SamlifyIdentityProvider = samlify.IdentityProvider({
  entityID: IDP_ENTITY_ID,
  privateKey: samlFixture('idp.key'),
  signingCert: samlFixture('idp.crt'),
  singleSignOnService: [{ Binding: samlify.Constants.namespace.binding.redirect, Location: IDP_SSO_URL }],
  wantAuthnRequestsSigned: true,
});

export interface SamlPerson {
  readonly id: string;
  readonly email: string;
  readonly firstName?: string;
  readonly lastName?: string;
}

const attributeStatement = (person: SamlPerson) =>
  `<saml:AttributeStatement>${Object.entries({
    'user.id': person.id,
    'user.email': person.email,
    'user.first_name': person.firstName ?? 'Ada',
    'user.last_name': person.lastName ?? 'Lovelace',
  })
    .map(([name, value]) => `<saml:Attribute Name="${name}"><saml:AttributeValue xsi:type="xs:string">${value}</saml:AttributeValue></saml:Attribute>`)
    .join('')}</saml:AttributeStatement>`;

let sequence = 0;

/**
 * The signed SAML response (base64) the IdP posts for a person, with Okta's attribute names,
 * issued at `now` and valid for `validForMs`; IdP-initiated unless it answers `inResponseTo`.
 */
export async function signedSamlResponse(
  sp: SamlifyServiceProvider,
  person: SamlPerson,
  options: { now: Date; inResponseTo?: string; validForMs?: number },
): Promise<string> {
  const now = options.now.toISOString();
  const until = new Date(options.now.getTime() + (options.validForMs ?? 5 * 60_000)).toISOString();
  const acs = sp.entityMeta.getAssertionConsumerService('post');
  const { context } = await identityProvider.createLoginResponse(
    sp,
    { extract: { request: { id: options.inResponseTo ?? '' } } },
    'post',
    person,
    (template) => {
      const id = `_response${++sequence}`;
      const withoutRequest = options.inResponseTo ? template : template.replace(/ InResponseTo="\{InResponseTo\}"/g, '');
      return {
        id,
        context: samlify.SamlLib.replaceTagsByValue(withoutRequest.replace('{AttributeStatement}', attributeStatement(person)), {
          ID: id,
          AssertionID: `_assertion${sequence}`,
          Destination: acs,
          Audience: sp.entityMeta.getEntityID(),
          SubjectRecipient: acs,
          Issuer: IDP_ENTITY_ID,
          IssueInstant: now,
          StatusCode: samlify.Constants.StatusCode.Success,
          ConditionsNotBefore: now,
          ConditionsNotOnOrAfter: until,
          SubjectConfirmationDataNotOnOrAfter: until,
          NameIDFormat: samlify.Constants.namespace.format.emailAddress,
          NameID: person.email,
          InResponseTo: options.inResponseTo ?? '',
          AuthnStatement: '',
        }),
      };
    },
  );
  return context;
}
