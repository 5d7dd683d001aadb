import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { BOOTSTRAP, startTestApp, type TestApp } from '../support/test-app';
import { zipFile } from '../support/zip';

const MIB = 1024 * 1024;
const sha1 = (data: Buffer) => createHash('sha1').update(data).digest('hex');

/** Uploads chunks as sentry-cli does: a multipart body, each part named by its SHA-1 (`file_gzip` when compressed). */
async function uploadChunks(api: TestApp, org: string, token: string, parts: Array<{ name: string; content: Buffer; gzip?: boolean }>) {
  const form = new FormData();
  for (const part of parts) form.append(part.gzip ? 'file_gzip' : 'file', new Blob([part.content]), part.name);
  const response = await fetch(`${api.baseUrl}/api/0/organizations/${org}/chunk-upload/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: response.status, body: await response.json() };
}

/** A second organization with a project and a token, for the tenant that must not be slowed or charged. */
async function otherOrganization(api: TestApp, slug: string) {
  await api.request('POST', '/api/0/organizations/', { body: { name: slug, slug } });
  await api.request('POST', `/api/0/organizations/${slug}/teams/`, { body: { name: slug } });
  await api.request('POST', `/api/0/teams/${slug}/${slug}/projects/`, { body: { name: 'App', slug: 'app' } });
  const token = await api.request('POST', `/api/0/organizations/${slug}/org-auth-tokens/`, { body: { name: 'ci', scopes: ['project:releases', 'org:read'] } });
  return token.body.token as string;
}

/** Runs `attack` while another tenant asks a simple question over and over; answers the slowest answer's milliseconds. */
async function slowestAnswerDuring(api: TestApp, token: string, path: string, attack: Promise<unknown>): Promise<number> {
  let done = false;
  void attack.finally(() => (done = true));
  let slowest = 0;
  while (!done) {
    const started = performance.now();
    expect((await api.request('GET', path, { token })).status).toBe(200);
    slowest = Math.max(slowest, performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await attack;
  return slowest;
}

describe('chunk uploads within budgets', () => {
  let api: TestApp;
  let initech: string;

  beforeAll(async () => {
    api = await startTestApp();
    initech = await otherOrganization(api, 'initech');
  });

  afterAll(async () => {
    await api?.close();
  });

  it("inflates and hashes a flood of compressed chunks without freezing another tenant's requests", async () => {
    const options = (await api.request('GET', '/api/0/organizations/acme/chunk-upload/')).body;
    expect(options).toMatchObject({ chunkSize: 8 * MIB, chunksPerRequest: 4, maxRequestSize: 32 * MIB });

    // 64 parts of 8 MiB of zeros, 8 KiB each compressed: half a GiB to inflate and hash per request, four at once.
    const zeros = Buffer.alloc(options.chunkSize);
    const bomb = { name: sha1(zeros), content: gzipSync(zeros), gzip: true };
    // The other tenant's route answered once before: the probe measures serving it, not its first load.
    expect((await api.request('GET', '/api/0/organizations/initech/', { token: initech })).status).toBe(200);
    const flood = Promise.all([1, 2, 3, 4].map(() => uploadChunks(api, 'acme', BOOTSTRAP.token, Array(64).fill(bomb))));
    expect(await slowestAnswerDuring(api, initech, '/api/0/organizations/initech/', flood)).toBeLessThan(1000);
    for (const refused of await flood) expect(refused).toEqual({ status: 400, body: { detail: expect.any(String) } });

    // The most a request may carry, four at once: inflated and hashed off the event loop, and stored.
    const requests = [1, 2, 3, 4].map((request) =>
      [1, 2, 3, 4].map((part) => {
        const chunk = Buffer.alloc(options.chunkSize);
        chunk.writeUInt16BE(request * 16 + part);
        return { name: sha1(chunk), content: gzipSync(chunk), gzip: true };
      }),
    );
    const largest = Promise.all(requests.map((parts) => uploadChunks(api, 'acme', BOOTSTRAP.token, parts)));
    expect(await slowestAnswerDuring(api, initech, '/api/0/organizations/initech/', largest)).toBeLessThan(1000);
    expect((await largest).map((response) => response.status)).toEqual([200, 200, 200, 200]);
    const stored = await api.request('POST', '/api/0/organizations/acme/artifactbundle/assemble/', {
      body: { checksum: sha1(Buffer.from('not these')), chunks: requests[3].map((part) => part.name), projects: ['web'] },
    });
    expect(stored.body).toEqual({ state: 'error', missingChunks: [], detail: 'The chunks do not make up a file of the given checksum.' });
  }, 120_000);

  it('refuses a request that sends one chunk twice, or more chunks than sentry-cli is told', async () => {
    const chunk = Buffer.from('console.log("twice")');
    const twice = await uploadChunks(api, 'acme', BOOTSTRAP.token, [
      { name: sha1(chunk), content: chunk },
      { name: sha1(chunk), content: gzipSync(chunk), gzip: true },
    ]);
    expect(twice).toEqual({ status: 400, body: { detail: `Chunk ${sha1(chunk)} is sent more than once.` } });

    const five = [1, 2, 3, 4, 5].map((n) => Buffer.from(`part ${n}`)).map((content) => ({ name: sha1(content), content }));
    expect(await uploadChunks(api, 'acme', BOOTSTRAP.token, five)).toEqual({ status: 400, body: { detail: 'At most 4 chunks per request.' } });
    expect((await uploadChunks(api, 'acme', BOOTSTRAP.token, five.slice(0, 4))).status).toBe(200);
  });

  it('attaches a bundle assembled before to another release, dist and project, once', async () => {
    await api.request('POST', '/api/0/teams/acme/acme/projects/', { body: { name: 'Mobile', slug: 'mobile' } });
    for (const version of ['shop@3.0.0', 'shop@3.0.1'])
      await api.request('POST', '/api/0/organizations/acme/releases/', { body: { version, projects: ['web'] } });
    const bundle = zipFile([
      { name: 'manifest.json', content: JSON.stringify({ files: { 'files/_/_/app.min.js': { url: '~/app.min.js', type: 'minified_source' } } }) },
      { name: 'files/_/_/app.min.js', content: 'function a(){throw new Error("x")}a();' },
    ]);
    expect((await uploadChunks(api, 'acme', BOOTSTRAP.token, [{ name: sha1(bundle), content: bundle }])).status).toBe(200);
    const assemble = (version: string, dist: string | undefined, projects: string[]) =>
      api.request('POST', '/api/0/organizations/acme/artifactbundle/assemble/', {
        body: { checksum: sha1(bundle), chunks: [sha1(bundle)], projects, version, dist },
      });
    const files = async (version: string) =>
      (await api.request('GET', `/api/0/organizations/acme/releases/${version}/files/`)).body.map((file: { name: string; dist: string | null }) => [
        file.name,
        file.dist,
      ]);

    expect((await assemble('shop@3.0.0', undefined, ['web'])).body).toEqual({ state: 'ok', missingChunks: [], detail: null });
    expect(await files('shop@3.0.0')).toEqual([['~/app.min.js', null]]);
    // The chunks are gone once assembled; the bundle is known by its checksum and attached to the other release and dist.
    expect((await assemble('shop@3.0.1', 'ios', ['web', 'mobile'])).body).toEqual({ state: 'ok', missingChunks: [], detail: null });
    expect((await assemble('shop@3.0.1', 'ios', ['web', 'mobile'])).body).toEqual({ state: 'ok', missingChunks: [], detail: null });
    expect(await files('shop@3.0.1')).toEqual([['~/app.min.js', 'ios']]);
    expect(await files('shop@3.0.0')).toEqual([['~/app.min.js', null]]);
    expect((await api.request('GET', '/api/0/projects/acme/mobile/releases/shop@3.0.1/files/')).status).toBe(404);
  });
});

describe('the per-organization storage quota', () => {
  let api: TestApp;
  let initech: string;

  beforeAll(async () => {
    api = await startTestApp({ ORGANIZATION_STORAGE_MAX_BYTES: String(MIB) });
    initech = await otherOrganization(api, 'initech');
  });

  afterAll(async () => {
    await api?.close();
  });

  const uploadFile = async (version: string, name: string, content: Buffer, org = 'acme', token = BOOTSTRAP.token) => {
    const form = new FormData();
    form.append('file', new Blob([content]), name);
    form.append('name', `~/${name}`);
    const response = await fetch(`${api.baseUrl}/api/0/organizations/${org}/releases/${version}/files/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    return { status: response.status, body: await response.json() };
  };
  const sized = (bytes: number, fill: string) => Buffer.alloc(bytes, fill);

  it('refuses uploads past the budget with a clear 413, and frees it when files and releases are deleted', async () => {
    await api.request('POST', '/api/0/organizations/acme/releases/', { body: { version: 'app@1', projects: ['web'] } });
    const first = await uploadFile('app@1', 'a.js', sized(600 * 1024, 'a'));
    expect(first.status).toBe(201);
    const refused = { status: 413, body: { detail: expect.stringContaining('storage quota of 1048576 bytes') } };
    expect(await uploadFile('app@1', 'b.js', sized(600 * 1024, 'b'))).toEqual(refused);
    const chunk = sized(600 * 1024, 'c');
    expect(await uploadChunks(api, 'acme', BOOTSTRAP.token, [{ name: sha1(chunk), content: chunk }])).toEqual(refused);
    // The same bytes again are stored once and cost nothing.
    expect((await uploadFile('app@1', 'a-again.js', sized(600 * 1024, 'a'))).status).toBe(201);

    // Another organization has its own budget.
    await api.request('POST', '/api/0/organizations/initech/releases/', { token: initech, body: { version: 'app@1', projects: ['app'] } });
    expect((await uploadFile('app@1', 'a.js', sized(600 * 1024, 'a'), 'initech', initech)).status).toBe(201);

    // Deleting one of two files using the bytes frees nothing; deleting the last one frees them.
    const files = (await api.request('GET', '/api/0/organizations/acme/releases/app@1/files/')).body as Array<{ id: string }>;
    expect((await api.request('DELETE', `/api/0/organizations/acme/releases/app@1/files/${files[0].id}/`)).status).toBe(204);
    expect((await uploadFile('app@1', 'b.js', sized(600 * 1024, 'b'))).status).toBe(413);
    expect((await api.request('DELETE', `/api/0/organizations/acme/releases/app@1/files/${files[1].id}/`)).status).toBe(204);
    expect((await uploadFile('app@1', 'b.js', sized(600 * 1024, 'b'))).status).toBe(201);

    // A bundle: its chunks are charged until it is assembled, then its files; assembling past the budget is an error sentry-cli shows.
    const bundle = zipFile([
      { name: 'manifest.json', content: JSON.stringify({ files: { 'files/_/_/big.js': { url: '~/big.js', type: 'source' } } }) },
      { name: 'files/_/_/big.js', content: sized(300 * 1024, 'd') },
    ]);
    expect((await uploadChunks(api, 'acme', BOOTSTRAP.token, [{ name: sha1(bundle), content: bundle }])).status).toBe(200);
    const assemble = () =>
      api.request('POST', '/api/0/organizations/acme/artifactbundle/assemble/', {
        body: { checksum: sha1(bundle), chunks: [sha1(bundle)], projects: ['web'], version: 'app@1' },
      });
    expect((await assemble()).body).toEqual({ state: 'ok', missingChunks: [], detail: null });
    const bigger = sized(200 * 1024, 'e');
    expect(await uploadChunks(api, 'acme', BOOTSTRAP.token, [{ name: sha1(bigger), content: bigger }])).toEqual(refused);

    // Deleting the release deletes its files and bundles and frees their bytes.
    expect((await api.request('DELETE', '/api/0/organizations/acme/releases/app@1/')).status).toBe(204);
    expect((await uploadChunks(api, 'acme', BOOTSTRAP.token, [{ name: sha1(bigger), content: bigger }])).status).toBe(200);
    await api.request('POST', '/api/0/organizations/acme/releases/', { body: { version: 'app@2', projects: ['web'] } });
    expect((await uploadFile('app@2', 'a.js', sized(600 * 1024, 'a'))).status).toBe(201);
  });
});
