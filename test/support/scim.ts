import { BOOTSTRAP, type ApiResponse, type TestApp } from './test-app';

/** A self-signed X.509 certificate standing in for an identity provider's SAML signing certificate. */
export const IDP_CERTIFICATE = `-----BEGIN CERTIFICATE-----
MIIDFzCCAf+gAwIBAgIUQcm69/cgHz0gQpW7IXkh2rVZbL8wDQYJKoZIhvcNAQEL
BQAwGzEZMBcGA1UEAwwQaWRwLmV4YW1wbGUudGVzdDAeFw0yNjExMjIxOTEzMzRa
Fw0zNjExMTkxOTEzMzRaMBsxGTAXBgNVBAMMEGlkcC5leGFtcGxlLnRlc3QwggEi
MA0GCSqGSIb3DQEBAQUAA4IBDwAwggEKAoIBAQCPYqY1TpP5z1h5IEgOf+qZq73z
Pi886x7X8anWWFIhjX2tMSbpwRTi0yDQjdCCDtDoMHM+qu/zE5l3MpMQFKKHrjiP
XsfvRM17nSCz8pstLtu0S7ZLzDnuCBNcvwdfd4FL7KvTz2uCJ9L5iM+7jYe+8Bpw
i0lzLUcq+Ts9HeC4tCU7Qn3e0ElGvZ5wPiCUk+QCtwafskM7k/4Dy4wEqYvFYNXl
ufTEMLdvlHTYSLpB4Pgksit5jboo9Pq2PNqppw3AOqf2CePRZXR9GQDS4TU3AQtd
frzdYyHOxQuKziNQhwb54s9OhMYMSqhhX/S1oEm1iXwT3MZM4rtdgENbDcr5AgMB
AAGjUzBRMB0GA1UdDgQWBBTi16W9DvcyxItP3AMo0eiileGToDAfBgNVHSMEGDAW
gBTi16W9DvcyxItP3AMo0eiileGToDAPBgNVHRMBAf8EBTADAQH/MA0GCSqGSIb3
DQEBCwUAA4IBAQCOJ35ghjCx0k6agJLrroPWfMnTrPYJTOlojO+ZgCu0Ha0W5wUV
qtN1eAEoTvqoNHg3N/mMsWzUm5APjY3QweRTX8QFHsu9V28ESWoD/pmwVxRqTsK4
HJtF9HxJ/Bab6VYbRdJGk9F/5n/RZEqWbVP9mkHEkN8spACgdw+brr8A/JBQovYT
WmuyQLL/rFdS1OL6VmbTCT2qPkwFuBCWdm7LcyE6U1NZ0fNJ4obVjm3N5J2mV3UT
fqlgb+tsXV1zejKygUpFmChWr3ZTMOhQ2TCVhlnI52r7UFk4kmCKdXTRmRGg4X1P
SHGbzDNBvu057q0XIhzVHM+E0AAd/5q7ldiS
-----END CERTIFICATE-----
`;

export const SAML_PROVIDER = {
  provider: 'saml2',
  idpEntityId: 'http://www.okta.com/exk1fcia6d6EMsf331t7',
  ssoUrl: 'https://example.okta.com/app/faultline/exk1fcia6d6EMsf331t7/sso/saml',
  x509cert: IDP_CERTIFICATE,
};

export const SCIM_CONTENT_TYPE = 'application/scim+json';
export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const LIST_RESPONSE = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

/** Sets the organization's plan (as the instance administrator) and enables SCIM; answers the SCIM token. */
export async function enableScim(api: TestApp, org = BOOTSTRAP.org, plan = 'business'): Promise<string> {
  const planned = await api.request('PUT', `/api/0/organizations/${org}/`, { body: { plan } });
  if (planned.status !== 200) throw new Error(`set plan: ${planned.status} ${JSON.stringify(planned.body)}`);
  const created = await api.request('POST', `/api/0/organizations/${org}/auth-provider/`, { body: { ...SAML_PROVIDER, scimEnabled: true } });
  if (created.status !== 201) throw new Error(`auth provider: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.scimToken as string;
}

/** A SCIM client for one organization, sending bodies as identity providers do (application/scim+json). */
export function scimClient(api: TestApp, token: string, org = BOOTSTRAP.org) {
  return <T = any>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>> =>
    api.request<T>(method, `/api/0/organizations/${org}/scim/v2${path}`, {
      token,
      ...(body === undefined ? {} : { body, headers: { 'content-type': SCIM_CONTENT_TYPE } }),
    });
}

/** `?filter=...` with the filter URL-encoded, as providers send it. */
export const filter = (expression: string, extra = ''): string => `filter=${encodeURIComponent(expression)}${extra}`;
