import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { BOOTSTRAP, startTestApp, type TestApp } from '../support/test-app';

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
});
