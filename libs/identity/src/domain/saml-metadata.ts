// Both packages' type declarations pull the browser's DOM types into every file of the build;
// these few shapes are all this file uses of them.
interface XmlElement {
  getAttribute(name: string): string | null;
}
interface XmlText {
  nodeValue: string | null;
}
interface XmlDocument {
  documentElement: XmlElement | null;
}
type ErrorHandler = (message: string) => void;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { DOMParser } = require('@xmldom/xmldom') as {
  DOMParser: new (options: { errorHandler: { warning: ErrorHandler; error: ErrorHandler; fatalError: ErrorHandler } }) => {
    parseFromString(xml: string, mimeType: string): XmlDocument | undefined;
  };
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const xpath = require('xpath') as { useNamespaces(namespaces: Record<string, string>): (expression: string, node: unknown, single?: boolean) => unknown };

/** Budgets of importing an identity provider's metadata, declared with the rule. */
export const SAML_METADATA_LIMITS = {
  /** Okta's and Entra's documents are 2–10 KB; aggregated federation metadata is refused anyway. */
  maxChars: 256 * 1024,
  fetchTimeoutMs: 10_000,
} as const;

/** What a SAML provider needs of its identity provider, read from its metadata. */
export interface IdpMetadata {
  readonly idpEntityId: string;
  readonly ssoUrl: string;
  /** Base64 DER, as metadata carries it. */
  readonly x509cert: string;
}

const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const select = xpath.useNamespaces({ md: 'urn:oasis:names:tc:SAML:2.0:metadata', ds: 'http://www.w3.org/2000/09/xmldsig#' });

const attribute = (node: XmlElement | undefined, name: string): string => (node?.getAttribute(name) ?? '').trim();

/**
 * The entity id, HTTP-Redirect single sign-on URL and signing certificate of the identity provider
 * an EntityDescriptor describes, or why they cannot be read. A document type declaration is
 * refused before parsing, so no entity is ever expanded.
 */
export function parseIdpMetadata(xml: string): IdpMetadata | { readonly error: string } {
  if (xml.length > SAML_METADATA_LIMITS.maxChars) return { error: `The metadata is larger than ${SAML_METADATA_LIMITS.maxChars / 1024} KB.` };
  if (/<!DOCTYPE/i.test(xml)) return { error: 'The metadata must not contain a document type declaration.' };
  const problems: string[] = [];
  const problem = (message: string) => void problems.push(message);
  let document: XmlDocument | undefined;
  try {
    document = new DOMParser({ errorHandler: { warning: () => undefined, error: problem, fatalError: problem } }).parseFromString(xml, 'text/xml');
  } catch {
    return { error: 'The metadata is not well-formed XML.' };
  }
  if (problems.length > 0 || !document?.documentElement) return { error: 'The metadata is not well-formed XML.' };
  const entity = select('(//md:EntityDescriptor[md:IDPSSODescriptor])[1]', document, true) as XmlElement | undefined;
  if (!entity) return { error: 'The metadata describes no identity provider (no EntityDescriptor with an IDPSSODescriptor).' };
  const idpEntityId = attribute(entity, 'entityID');
  if (!idpEntityId) return { error: 'The identity provider in the metadata has no entityID.' };
  const sso = select(`md:IDPSSODescriptor/md:SingleSignOnService[@Binding="${REDIRECT_BINDING}"]`, entity) as XmlElement[];
  const ssoUrl = attribute(sso[0], 'Location');
  if (!/^https?:\/\//i.test(ssoUrl)) return { error: 'The metadata has no HTTP-Redirect SingleSignOnService with an http(s) Location.' };
  const certificates = select(
    'md:IDPSSODescriptor/md:KeyDescriptor[not(@use) or @use="signing"]/ds:KeyInfo/ds:X509Data/ds:X509Certificate/text()',
    entity,
  ) as XmlText[];
  const x509cert = (certificates[0]?.nodeValue ?? '').replace(/\s+/g, '');
  if (!x509cert) return { error: 'The metadata has no signing certificate (KeyDescriptor with an X509Certificate).' };
  return { idpEntityId, ssoUrl, x509cert };
}
