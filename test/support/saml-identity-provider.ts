/**
 * samlify, a real SAML identity provider, for the tests. It is loaded by `require` with the few
 * types the tests use, because its own declarations pull the DOM library (through @xmldom/xmldom's
 * `reference lib="dom"`) into the whole program, whose Node types then clash with it.
 */
export interface SamlifyServiceProvider {
  readonly entityMeta: { getEntityID(): string; getAssertionConsumerService(binding: 'post'): string; isAuthnRequestSigned(): boolean };
}

export interface SamlifyIdentityProvider {
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
