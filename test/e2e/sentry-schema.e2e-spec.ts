import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import { EventProcessing } from '@faultline/ingest';
import { enableScim, PATCH_OP, scimClient, USER_SCHEMA } from '../support/scim';
import { type ApiResponse, startTestApp, type TestApp } from '../support/test-app';

const pointer = (...segments: string[]) => segments.map((segment) => segment.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** Sentry's published OpenAPI schema (the subset our interface covers), as generated clients read it. */
const OPENAPI = JSON.parse(readFileSync(join(__dirname, '../fixtures/sentry-openapi-subset.json'), 'utf8')) as {
  paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>>;
};
const SCHEMA_ID = 'sentry-openapi';

/**
 * Where the published schema contradicts what Sentry itself answers, the narrowest correction:
 * - PATCH scim/v2/Users/{member_id} is documented as 204, but Sentry answers 200 with the member
 *   (RFC 7644 3.5.2; Okta reads it), the same body as GET.
 * - A service app's `schema` is typed string, but Sentry answers the app's UI-component document,
 *   an object (`{"elements": [...]}`), and integrations read it as one.
 */
function correctSentrySchema(): void {
  const user = OPENAPI.paths['/api/0/organizations/{organization_id_or_slug}/scim/v2/Users/{member_id}'];
  const patched = user.patch.responses as Record<string, unknown>;
  delete patched['204'];
  patched['200'] = { $ref: `#/${pointer('paths', '/api/0/organizations/{organization_id_or_slug}/scim/v2/Users/{member_id}', 'get', 'responses', '200')}` };
  for (const [template, method] of [
    ['/api/0/organizations/{organization_id_or_slug}/sentry-apps/', 'get'],
    ['/api/0/sentry-apps/{sentry_app_id_or_slug}/', 'get'],
    ['/api/0/sentry-apps/{sentry_app_id_or_slug}/', 'put'],
  ]) {
    const body = OPENAPI.paths[template][method].responses?.['200'].content?.['application/json'].schema as {
      type: string;
      items?: object;
      properties?: Record<string, unknown>;
    };
    const app = (body.type === 'array' ? body.items : body) as { properties: Record<string, unknown> };
    app.properties.schema = { type: 'object' };
  }
}

/** The operations of our interface that Sentry's schema also describes: each must be exercised below. */
const OPERATIONS = [
  'GET /api/0/organizations/{organization_id_or_slug}/sentry-app-installations/',
  'GET /api/0/organizations/{organization_id_or_slug}/sentry-apps/',
  'GET /api/0/sentry-apps/{sentry_app_id_or_slug}/',
  'PUT /api/0/sentry-apps/{sentry_app_id_or_slug}/',
  'POST /api/0/sentry-app-installations/{uuid}/external-issues/',
  'DELETE /api/0/sentry-app-installations/{uuid}/external-issues/{external_issue_id}/',
  'GET /api/0/organizations/{organization_id_or_slug}/scim/v2/Users',
  'POST /api/0/organizations/{organization_id_or_slug}/scim/v2/Users',
  'GET /api/0/organizations/{organization_id_or_slug}/scim/v2/Users/{member_id}',
  'PATCH /api/0/organizations/{organization_id_or_slug}/scim/v2/Users/{member_id}',
  'DELETE /api/0/organizations/{organization_id_or_slug}/scim/v2/Users/{member_id}',
  'GET /api/0/projects/{organization_id_or_slug}/{project_id_or_slug}/',
  'GET /api/0/projects/{organization_id_or_slug}/{project_id_or_slug}/stats/',
  'GET /api/0/projects/{organization_id_or_slug}/{project_id_or_slug}/users/',
  'GET /api/0/projects/{organization_id_or_slug}/{project_id_or_slug}/tags/{key}/values/',
  'GET /api/0/projects/{organization_id_or_slug}/{project_id_or_slug}/hooks/',
  'POST /api/0/projects/{organization_id_or_slug}/{project_id_or_slug}/hooks/',
].sort();

/** Sentry's path templates as patterns, the most specific (most literal characters) first. */
const TEMPLATES = Object.keys(OPENAPI.paths)
  .map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    literal: template.replace(/\{[^}]+\}/g, '').length,
  }))
  .sort((a, b) => b.literal - a.literal);

function operationOf(method: string, url: string): { template: string; method: string } | undefined {
  const path = url.split('?')[0];
  const lower = method.toLowerCase();
  const match = TEMPLATES.find(({ template, pattern }) => pattern.test(path) && OPENAPI.paths[template][lower] !== undefined);
  return match && { template: match.template, method: lower };
}

/** The object of the OpenAPI document at a JSON pointer. */
function nodeAt(path: string): unknown {
  return path
    .split('/')
    .slice(1)
    .reduce<unknown>((node, segment) => (node as Record<string, unknown> | undefined)?.[segment.replace(/~1/g, '/').replace(/~0/g, '~')], OPENAPI);
}

/** The pointer of an OpenAPI object, following local `$ref`s (`#/...`), as to a response kept under components. */
function resolvePointer(path: string): string {
  const ref = (nodeAt(path) as { $ref?: unknown } | undefined)?.$ref;
  return typeof ref === 'string' && ref.startsWith('#/') ? resolvePointer(ref.slice(1)) : path;
}

interface Exchange {
  method: string;
  url: string;
  response: ApiResponse;
}

/**
 * Every operation of our interface that Sentry's OpenAPI schema describes, driven with realistic
 * data, each response validated against the schema of its documented status: what generated
 * clients deserialise into. A status the schema does not document for the operation is a miss too.
 */
describe("Sentry's published response schemas", () => {
  let api: TestApp;
  const exchanges: Exchange[] = [];
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  correctSentrySchema();
  ajv.addSchema(OPENAPI, SCHEMA_ID);

  async function call(method: string, url: string, options: Parameters<TestApp['request']>[2] = {}): Promise<ApiResponse> {
    const response = await api.request(method, url, options);
    exchanges.push({ method, url, response });
    return response;
  }

  async function sendEvent(projectId: string, key: string, event: Record<string, unknown>): Promise<void> {
    const response = await fetch(`${api.baseUrl}/api/${projectId}/store/?sentry_key=${key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event_id: crypto.randomUUID().replace(/-/g, ''), level: 'error', platform: 'node', ...event }),
    });
    expect(response.status).toBe(200);
  }

  function violations({ method, url, response }: Exchange): string[] {
    const operation = operationOf(method, url);
    if (!operation) return [`${method} ${url}: no operation of the schema matches`];
    const documented = (OPENAPI.paths[operation.template][operation.method].responses ?? {}) as Record<
      string,
      { $ref?: string; content?: Record<string, unknown> }
    >;
    const status = String(response.status);
    if (!(status in documented)) return [`${method} ${url}: status ${status} is not documented (${Object.keys(documented).join(', ')})`];
    const documentedResponse = resolvePointer(`/${pointer('paths', operation.template, operation.method, 'responses', status)}`);
    const { content } = nodeAt(documentedResponse) as { content?: Record<string, unknown> };
    if (!content) return response.body === undefined ? [] : [`${method} ${url}: ${status} documents no body, got ${JSON.stringify(response.body)}`];
    const [contentType] = Object.keys(content);
    const validate = ajv.compile({ $ref: `${SCHEMA_ID}#${documentedResponse}/${pointer('content', contentType, 'schema')}` });
    if (validate(response.body)) return [];
    return (validate.errors as ErrorObject[]).map((error) => `${method} ${url} ${status}: ${error.instancePath || '(body)'} ${error.message}`);
  }

  beforeAll(async () => {
    api = await startTestApp();
    const project = (await api.request('GET', '/api/0/projects/acme/web/')).body;
    const [key] = (await api.request('GET', '/api/0/projects/acme/web/keys/')).body;
    // Users as SDKs report them: fully known, known by address only, known by id only.
    await sendEvent(project.id, key.public, {
      message: 'Card declined',
      release: 'shop@1.2.3',
      environment: 'production',
      user: { id: 'u-1', email: 'jane@example.com', username: 'jane', ip_address: '10.0.0.1' },
    });
    await sendEvent(project.id, key.public, { message: 'Card declined', environment: 'production', user: { ip_address: '10.0.0.2' } });
    await sendEvent(project.id, key.public, { message: 'Timeout', environment: 'staging', user: { id: 'u-3' } });
    await api.app.get(EventProcessing).drain();
  });

  afterAll(async () => {
    await api?.close();
  });

  it('answers every operation the way the schema documents it', async () => {
    // Service apps and their installations: an internal app (installed at once) and a public one (pending).
    const internal = await api.request('POST', '/api/0/sentry-apps/', {
      body: {
        name: 'Ticket Bridge',
        organization: 'acme',
        isInternal: true,
        webhookUrl: 'https://tickets.example.com/hooks',
        scopes: ['event:admin', 'project:read'],
        events: ['issue'],
      },
    });
    expect(internal.status).toBe(201);
    expect(
      (
        await api.request('POST', '/api/0/sentry-apps/', {
          body: { name: 'Pager', organization: 'acme', isInternal: false, webhookUrl: 'https://pager.example.com/hooks', scopes: ['org:read'] },
        })
      ).status,
    ).toBe(201);
    expect((await api.request('POST', '/api/0/organizations/acme/sentry-app-installations/', { body: { slug: 'pager' } })).status).toBe(201);
    const installations = await call('GET', '/api/0/organizations/acme/sentry-app-installations/');
    await call('GET', '/api/0/organizations/acme/sentry-apps/');
    await call('GET', `/api/0/sentry-apps/${internal.body.slug}/`);
    await call('PUT', `/api/0/sentry-apps/${internal.body.slug}/`, { body: { overview: 'Files tickets for issues' } });

    // External issue links, made and removed with the installation's token.
    const installation = (installations.body as Array<{ uuid: string; app: { slug: string } }>).find((row) => row.app.slug === internal.body.slug);
    const token = (await api.request('POST', `/api/0/sentry-apps/${internal.body.slug}/api-tokens/`)).body.token as string;
    const [issue] = (await api.request('GET', '/api/0/projects/acme/web/issues/?query=Timeout')).body;
    const linksPath = `/api/0/sentry-app-installations/${installation?.uuid}/external-issues/`;
    const link = await call('POST', linksPath, {
      token,
      body: { issueId: Number(issue.id), webUrl: 'https://tickets.example.com/T-7', project: 'OPS', identifier: 'T-7' },
    });
    await call('DELETE', `${linksPath}${link.body.id}/`, { token });

    // SCIM users, as an identity provider provisions, reads, deactivates and removes them.
    const scim = scimClient(api, await enableScim(api));
    const record = (method: string, path: string, body?: unknown) =>
      scim(method, path, body).then((response) => {
        exchanges.push({ method, url: `/api/0/organizations/acme/scim/v2${path}`, response });
        return response;
      });
    const provisioned = await record('POST', '/Users', {
      schemas: [USER_SCHEMA],
      userName: 'rita@acme.test',
      name: { givenName: 'Rita', familyName: 'Ng' },
      emails: [{ primary: true, value: 'rita@acme.test', type: 'work' }],
      active: true,
    });
    await record('GET', '/Users?startIndex=1&count=10');
    await record('GET', `/Users/${provisioned.body.id}`);
    await record('PATCH', `/Users/${provisioned.body.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'replace', value: { active: false } }],
    });
    await record('DELETE', `/Users/${provisioned.body.id}`);

    // The project, its statistics, users, tag values and service hooks.
    await call('GET', '/api/0/projects/acme/web/');
    await call('GET', '/api/0/projects/acme/web/stats/');
    await call('GET', '/api/0/projects/acme/web/stats/?stat=received&resolution=10s');
    await call('GET', '/api/0/projects/acme/web/users/');
    for (const key of ['environment', 'release', 'user', 'user.email']) await call('GET', `/api/0/projects/acme/web/tags/${key}/values/`);
    await call('POST', '/api/0/projects/acme/web/hooks/', { body: { url: 'https://hooks.example.com/sentry', events: ['event.alert', 'event.created'] } });
    await call('GET', '/api/0/projects/acme/web/hooks/');

    const exercised = new Set(exchanges.map(({ method, url }) => operationOf(method, url)).map((op) => op && `${op.method.toUpperCase()} ${op.template}`));
    expect([...exercised].sort()).toEqual(OPERATIONS);
    expect(exchanges.flatMap(violations)).toEqual([]);
  });
});
