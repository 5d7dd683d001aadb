import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build, transformSync } from 'esbuild';
import { BOOTSTRAP, startTestApp, type TestApp } from '../support/test-app';
import { zipFile } from '../support/zip';
import { eventsProcessed } from '../support/events-processed';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');
const SENTRY_CLI = join(ROOT, 'node_modules', '.bin', 'sentry-cli');
const RELEASE = 'shop@2.0.0';

/** A CI pipeline against Faultline: the real sentry-cli creates, finalizes and deploys a release and uploads source maps. */
describe('releases and source maps with sentry-cli', () => {
  let api: TestApp;
  let dsn: string;
  let work: string;

  beforeAll(async () => {
    api = await startTestApp();
    dsn = (await api.request('GET', '/api/0/projects/acme/web/keys/')).body[0].dsn.public;
    work = mkdtempSync(join(tmpdir(), 'faultline-releases-'));
    copyFileSync(join(ROOT, 'test', 'fixtures', 'releases', 'checkout.js'), join(work, 'checkout.js'));
    await build({
      entryPoints: [join(work, 'checkout.js')],
      outfile: join(work, 'dist', 'bundle.min.js'),
      bundle: true,
      minify: true,
      sourcemap: true,
      platform: 'node',
      format: 'cjs',
      logLevel: 'silent',
    });
  });

  afterAll(async () => {
    await api?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const cli = (...args: string[]) =>
    run(SENTRY_CLI, args, {
      cwd: work,
      timeout: 60_000,
      env: {
        PATH: process.env.PATH,
        HOME: work,
        SENTRY_URL: api.baseUrl,
        SENTRY_AUTH_TOKEN: BOOTSTRAP.token,
        SENTRY_ORG: BOOTSTRAP.org,
        SENTRY_PROJECT: BOOTSTRAP.project,
        SENTRY_LOAD_DOTENV: '0',
        SENTRY_DISABLE_UPDATE_CHECK: '1',
      },
    });

  const processed = () => eventsProcessed(api);

  it('answers info, and creates, finalizes, lists and deploys a release', async () => {
    const info = await cli('info');
    expect(info.stdout).toContain('Default Organization: acme');
    expect(info.stdout).toContain('project:releases');

    await cli('releases', 'new', RELEASE);
    const created = await api.request('GET', `/api/0/organizations/acme/releases/${encodeURIComponent(RELEASE)}/`);
    expect(created.body).toMatchObject({ version: RELEASE, shortVersion: '2.0.0', dateReleased: null, projects: [expect.objectContaining({ slug: 'web' })] });

    // Commits given explicitly, on a repository the organization registered.
    expect(
      (await api.request('POST', '/api/0/organizations/acme/repos/', { body: { name: 'acme/shop', url: 'https://git.example.com/acme/shop' } })).status,
    ).toBe(201);
    const head = 'a'.repeat(40);
    await cli('releases', 'set-commits', RELEASE, '--commit', `acme/shop@${head}`);
    expect((await api.request('GET', `/api/0/organizations/acme/releases/${encodeURIComponent(RELEASE)}/commits/`)).body).toEqual([
      expect.objectContaining({ id: head, repository: { name: 'acme/shop' } }),
    ]);
    const unknownRepository = await api.request('PUT', `/api/0/organizations/acme/releases/${encodeURIComponent(RELEASE)}/`, {
      body: { refs: [{ repository: 'acme/nope', commit: head }] },
    });
    expect(unknownRepository).toMatchObject({ status: 400, body: { detail: 'Invalid repository names: acme/nope' } });

    // Commits of the local git history, as a CI checkout has them.
    const git = (...args: string[]) =>
      run('git', args, {
        cwd: work,
        env: {
          PATH: process.env.PATH,
          HOME: work,
          GIT_AUTHOR_NAME: 'Ada',
          GIT_AUTHOR_EMAIL: 'ada@example.com',
          GIT_COMMITTER_NAME: 'Ada',
          GIT_COMMITTER_EMAIL: 'ada@example.com',
        },
      });
    await git('init', '-q');
    await git('add', 'checkout.js');
    await git('commit', '-q', '-m', 'Checkout declines large amounts');
    await cli('releases', 'new', 'shop@2.0.1');
    // The previous release's head (set above) is no commit of this history: sentry-cli is told to go on without it.
    await cli('releases', 'set-commits', 'shop@2.0.1', '--local', '--ignore-missing');
    const local = (await api.request('GET', '/api/0/organizations/acme/releases/shop@2.0.1/commits/')).body;
    expect(local).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/^Checkout declines large amounts/), author: { name: 'Ada', email: 'ada@example.com' } }),
    ]);

    await cli('releases', 'finalize', RELEASE);
    await cli('deploys', 'new', '--release', RELEASE, '-e', 'production', '-n', 'canary');
    const list = await cli('releases', 'list');
    expect(list.stdout).toContain(RELEASE);

    const detail = (await api.request('GET', `/api/0/organizations/acme/releases/${encodeURIComponent(RELEASE)}/`)).body;
    expect(detail.dateReleased).toEqual(expect.any(String));
    expect(detail).toMatchObject({
      deployCount: 1,
      lastDeploy: { environment: 'production', name: 'canary' },
      commitCount: 1,
      lastCommit: { id: 'a'.repeat(40) },
    });
    expect((await api.request('GET', '/api/0/projects/acme/web/releases/?query=2.0.0')).body.map((r: { version: string }) => r.version)).toEqual([RELEASE]);
    expect((await api.request('GET', '/api/0/projects/acme/web/releases/?query=2.0')).body.map((r: { version: string }) => r.version)).toEqual([
      'shop@2.0.1',
      RELEASE,
    ]);
  });

  it('uploads source maps, and shows an error thrown from the minified bundle as written', async () => {
    await cli('sourcemaps', 'inject', 'dist');
    const upload = await cli('sourcemaps', 'upload', '--release', RELEASE, 'dist');
    expect(upload.stdout).toMatch(/Uploaded files to Sentry|Nothing to upload/);
    // A second upload of the same bundle sends nothing again.
    expect((await cli('sourcemaps', 'upload', '--release', RELEASE, 'dist')).stdout).toContain('Nothing to upload');

    await run(process.execPath, [join(__dirname, '..', 'support', 'sourcemapped-client.cjs'), dsn, RELEASE, join(work, 'dist', 'bundle.min.js')], {
      timeout: 30_000,
    });
    await processed();

    const issues = (await api.request('GET', '/api/0/projects/acme/web/issues/')).body;
    const issue = issues.find((i: { title: string }) => i.title.startsWith('TypeError'));
    const event = (await api.request('GET', `/api/0/organizations/acme/issues/${issue.id}/events/latest/`)).body;
    const exception = event.entries.find((entry: { type: string }) => entry.type === 'exception').data.values[0];
    const top = exception.stacktrace.frames.at(-1);
    const source = readFileSync(join(ROOT, 'test', 'fixtures', 'releases', 'checkout.js'), 'utf8').split('\n');
    expect(top).toMatchObject({ filename: expect.stringMatching(/checkout\.js$/), lineNo: 4, function: 'chargeCard' });
    expect(top.context).toContainEqual([4, source[3]]);
    expect(exception.stacktrace.frames.at(-2)).toMatchObject({ filename: expect.stringMatching(/checkout\.js$/), lineNo: 11 });
    expect(exception.rawStacktrace.frames.at(-1).filename).toMatch(/bundle\.min\.js$/);
    // The runner script itself was never uploaded: listed as Sentry lists it, while its frame stays as sent.
    expect(event.errors).toEqual([
      { type: 'js_no_source', message: 'Source code was not found', data: { url: expect.stringMatching(/sourcemapped-client\.cjs$/) } },
    ]);
    expect(issue.culprit).toContain('chargeCard');

    const release = (await api.request('GET', `/api/0/organizations/acme/releases/${encodeURIComponent(RELEASE)}/`)).body;
    expect(release).toMatchObject({ newGroups: 1, lastEvent: expect.any(String) });
  });

  const sha1 = (data: Buffer) => createHash('sha1').update(data).digest('hex');

  /** Uploads chunks as sentry-cli does: a multipart body, each part named by its SHA-1. */
  async function uploadChunks(org: string, token: string, chunks: Array<{ name: string; content: Buffer }>) {
    const form = new FormData();
    for (const chunk of chunks) form.append('file', new Blob([chunk.content]), chunk.name);
    const response = await fetch(`${api.baseUrl}/api/0/organizations/${org}/chunk-upload/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    return { status: response.status, body: await response.json() };
  }

  it("refuses bad releases and bad bundles with a clear error, and keeps one organization's uploads from another", async () => {
    for (const version of ['a/b', 'latest', ' padded']) {
      const refused = await api.request('POST', '/api/0/organizations/acme/releases/', { body: { version, projects: ['web'] } });
      expect({ version, status: refused.status, detail: refused.body.detail }).toEqual({ version, status: 400, detail: expect.any(String) });
    }
    expect((await api.request('POST', '/api/0/organizations/acme/releases/', { body: { version: 'x@1' } })).status).toBe(400);
    expect((await api.request('POST', '/api/0/organizations/acme/releases/', { body: { version: 'x@1', projects: ['nope'] } })).status).toBe(400);
    expect((await api.request('GET', '/api/0/organizations/acme/releases/nope@1/')).status).toBe(404);
    expect((await api.request('POST', '/api/0/organizations/acme/releases/nope@1/deploys/', { body: { environment: 'production' } })).status).toBe(404);

    // A token that may only read the organization may not upload.
    const reader = await api.request('POST', '/api/0/organizations/acme/org-auth-tokens/', { body: { name: 'reader', scopes: ['org:read'] } });
    expect((await api.request('GET', '/api/0/organizations/acme/chunk-upload/', { token: reader.body.token })).status).toBe(403);

    // A chunk whose content is not its name is refused.
    expect((await uploadChunks('acme', BOOTSTRAP.token, [{ name: sha1(Buffer.from('other')), content: Buffer.from('content') }])).status).toBe(400);

    // A bundle that escapes its directory is assembled into an error, and nothing is stored.
    const hostile = zipFile([
      { name: 'manifest.json', content: JSON.stringify({ files: {} }) },
      { name: '../escape.js', content: 'x' },
    ]);
    expect((await uploadChunks('acme', BOOTSTRAP.token, [{ name: sha1(hostile), content: hostile }])).status).toBe(200);
    const assembled = await api.request('POST', '/api/0/organizations/acme/artifactbundle/assemble/', {
      body: { checksum: sha1(hostile), chunks: [sha1(hostile)], projects: ['web'] },
    });
    expect(assembled.body).toEqual({ state: 'error', missingChunks: [], detail: expect.stringContaining('Invalid artifact bundle') });

    // Another organization does not see acme's chunks: it must upload its own.
    await api.request('POST', '/api/0/organizations/', { body: { name: 'Initech', slug: 'initech' } });
    await api.request('POST', '/api/0/organizations/initech/teams/', { body: { name: 'Initech' } });
    const initechProject = await api.request('POST', '/api/0/teams/initech/initech/projects/', { body: { name: 'Portal', slug: 'portal' } });
    const initech = await api.request('POST', '/api/0/organizations/initech/org-auth-tokens/', {
      body: { name: 'ci', scopes: ['project:releases', 'org:read'] },
    });
    expect(initechProject.status).toBe(201);
    const bundle = zipFile([{ name: 'manifest.json', content: JSON.stringify({ files: {} }) }]);
    await uploadChunks('acme', BOOTSTRAP.token, [{ name: sha1(bundle), content: bundle }]);
    const elsewhere = await api.request('POST', '/api/0/organizations/initech/artifactbundle/assemble/', {
      token: initech.body.token,
      body: { checksum: sha1(bundle), chunks: [sha1(bundle)], projects: ['portal'] },
    });
    expect(elsewhere.body).toEqual({ state: 'not_found', missingChunks: [sha1(bundle)], detail: null });
    expect((await api.request('GET', `/api/0/organizations/initech/releases/${encodeURIComponent(RELEASE)}/`, { token: initech.body.token })).status).toBe(404);
    expect((await api.request('GET', '/api/0/organizations/initech/releases/', { token: initech.body.token })).body).toEqual([]);
  });

  it('creates a release an event names on first sight, with its counts', async () => {
    await run(process.execPath, [join(__dirname, '..', 'support', 'sentry-client.cjs'), dsn, 'checkout'], { timeout: 30_000 });
    await processed();
    const release = (await api.request('GET', '/api/0/organizations/acme/releases/shop@1.2.3/')).body;
    expect(release).toMatchObject({
      version: 'shop@1.2.3',
      dateReleased: null,
      newGroups: 2,
      eventCount: 3,
      projects: [expect.objectContaining({ slug: 'web', newGroups: 2, eventCount: 3 })],
      lastEvent: expect.any(String),
      firstEvent: expect.any(String),
    });
  });

  it('maps a browser event by release and URL through files uploaded one by one, and lists a broken map as an error', async () => {
    const version = 'web@5.0.0';
    await api.request('POST', '/api/0/organizations/acme/releases/', { body: { version, projects: ['web'] } });
    const source =
      'function renderCart(cart) {\n  return cart.items.map(function (item) {\n    return item.name.toUpperCase();\n  });\n}\nrenderCart({ items: [{}] });\n';
    const out = transformSync(source, { minify: true, sourcemap: 'external', sourcefile: 'webpack://shop/./src/cart.js' });
    const upload = async (name: string, content: string, header?: string) => {
      const form = new FormData();
      form.append('file', new Blob([content]), name.split('/').at(-1) as string);
      form.append('name', name);
      if (header) form.append('header', header);
      const response = await fetch(`${api.baseUrl}/api/0/organizations/acme/releases/${version}/files/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${BOOTSTRAP.token}` },
        body: form,
      });
      return { status: response.status, body: await response.json() };
    };
    const minified = await upload('~/static/cart.min.js', out.code, 'Sourcemap: cart.min.js.map');
    expect(minified).toMatchObject({
      status: 201,
      body: { name: '~/static/cart.min.js', headers: { Sourcemap: 'cart.min.js.map' }, sha1: sha1(Buffer.from(out.code)) },
    });
    expect((await upload('~/static/cart.min.js.map', out.map)).status).toBe(201);
    expect((await upload('~/static/cart.min.js.map', out.map)).status).toBe(409);
    await upload('~/static/broken.min.js', out.code, 'Sourcemap: broken.min.js.map');
    await upload('~/static/broken.min.js.map', '{"version": 3, "mappings": ');
    const files = (await api.request('GET', `/api/0/organizations/acme/releases/${version}/files/`)).body;
    expect(files.map((f: { name: string }) => f.name)).toEqual([
      '~/static/cart.min.js',
      '~/static/cart.min.js.map',
      '~/static/broken.min.js',
      '~/static/broken.min.js.map',
    ]);

    const throwAt = (text: string) => {
      const offset = out.code.lastIndexOf(text);
      const before = out.code.slice(0, offset).split('\n');
      return { lineno: before.length, colno: before[before.length - 1].length + 1 };
    };
    const key = (await api.request('GET', '/api/0/projects/acme/web/keys/')).body[0];
    // What V8 reports for this code: renderCart is not renamed by minification, so it names itself.
    const frame = (file: string, text: string, fn?: string) => ({
      abs_path: `https://shop.example.com/static/${file}?v=5`,
      filename: `/static/${file}`,
      function: fn,
      in_app: true,
      ...throwAt(text),
    });
    const sent = await fetch(`${api.baseUrl}/api/${key.projectId}/store/?sentry_key=${key.public}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        platform: 'javascript',
        release: version,
        exception: {
          values: [
            {
              type: 'TypeError',
              value: "Cannot read properties of undefined (reading 'toUpperCase')",
              stacktrace: {
                frames: [
                  frame('broken.min.js', 'renderCart'),
                  frame('cart.min.js', 'renderCart('),
                  frame('cart.min.js', '.map(', 'renderCart'),
                  frame('cart.min.js', 'toUpperCase'),
                ],
              },
            },
          ],
        },
      }),
    });
    expect(sent.status).toBe(200);
    await processed();
    const issue = (await api.request('GET', '/api/0/projects/acme/web/issues/?query=toUpperCase')).body[0];
    const event = (await api.request('GET', `/api/0/organizations/acme/issues/${issue.id}/events/latest/`)).body;
    const frames = event.entries.find((entry: { type: string }) => entry.type === 'exception').data.values[0].stacktrace.frames;
    expect(frames[3]).toMatchObject({
      filename: 'src/cart.js',
      absPath: 'webpack://shop/src/cart.js',
      lineNo: 3,
      colNo: 22,
      context: expect.arrayContaining([[3, '    return item.name.toUpperCase();']]),
    });
    expect(frames[2]).toMatchObject({ filename: 'src/cart.js', lineNo: 2, function: 'renderCart' });
    expect(frames[1]).toMatchObject({ filename: 'src/cart.js', lineNo: 6 });
    expect(frames[0].filename).toBe('/static/broken.min.js');
    expect(event.errors).toEqual([
      { type: 'js_invalid_source', message: 'Sourcemap was invalid or not parseable', data: { url: '~/static/broken.min.js.map' } },
    ]);

    const [first] = files;
    expect((await api.request('DELETE', `/api/0/organizations/acme/releases/${version}/files/${first.id}/`)).status).toBe(204);
    expect((await api.request('GET', `/api/0/organizations/acme/releases/${version}/files/${first.id}/`)).status).toBe(404);
  });

  it('processes an event through maps that would take gigabytes to decode, and stays up', async () => {
    // Three maps of 32 MiB of ";" in a bundle of about 100 KB: decoded, each would take 1.4 GB.
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    const name = (i: number) => `_/_/static/bomb${i}.js.map`;
    const mappings = ';'.repeat(32 * 1024 * 1024 - 100);
    const bundle = zipFile([
      {
        name: 'manifest.json',
        content: JSON.stringify({
          files: Object.fromEntries(ids.map((id, i) => [name(i), { url: `~/static/bomb${i}.js.map`, type: 'source_map', headers: { 'debug-id': id } }])),
        }),
      },
      ...ids.map((_, i) => ({ name: name(i), content: `{"version":3,"sources":["bomb${i}.js"],"names":[],"mappings":"${mappings}"}`, deflate: true })),
    ]);
    expect(bundle.length).toBeLessThan(200 * 1024);
    expect((await uploadChunks('acme', BOOTSTRAP.token, [{ name: sha1(bundle), content: bundle }])).status).toBe(200);
    const assembled = await api.request('POST', '/api/0/organizations/acme/artifactbundle/assemble/', {
      body: { checksum: sha1(bundle), chunks: [sha1(bundle)], projects: ['web'] },
    });
    expect(assembled.body.state).toBe('ok');

    const key = (await api.request('GET', '/api/0/projects/acme/web/keys/')).body[0];
    const file = (i: number) => `https://shop.example.com/static/bomb${i}.js`;
    const sent = await fetch(`${api.baseUrl}/api/${key.projectId}/store/?sentry_key=${key.public}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        platform: 'javascript',
        exception: {
          values: [{ type: 'RangeError', value: 'decoded too much', stacktrace: { frames: ids.map((_, i) => ({ abs_path: file(i), lineno: 1, colno: 10 })) } }],
        },
        debug_meta: { images: ids.map((debug_id, i) => ({ type: 'sourcemap', code_file: file(i), debug_id })) },
      }),
    });
    expect(sent.status).toBe(200);
    await processed();
    const issue = (await api.request('GET', '/api/0/projects/acme/web/issues/?query=RangeError')).body[0];
    const event = (await api.request('GET', `/api/0/organizations/acme/issues/${issue.id}/events/latest/`)).body;
    expect(event.errors).toEqual(
      ids.map((_, i) => ({ type: 'js_invalid_source', message: 'Sourcemap was invalid or not parseable', data: { url: `~/static/bomb${i}.js.map` } })),
    );
    expect((await api.request('GET', '/api/0/organizations/acme/')).status).toBe(200);
  });
});
