import { createHash, randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { transformSync } from 'esbuild';
import { FixedClock } from '@faultline/kernel';
import type { Sql } from '@faultline/platform';
import { openTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import type { JsFrame } from '../domain/symbolicate-frames';
import { ArtifactsRepository } from './artifacts.repository';
import { releasesConfig } from './releases-config';
import type { SymbolicationRequest } from '../contracts/source-map-symbolicator';
import { SourceMapSymbolicatorService } from './source-map-symbolicator';

const MIB = 1024 * 1024;
const SOURCE =
  'export function checkout(cart) {\n  return chargeCard(cart.total);\n}\nfunction chargeCard(amount) {\n  throw new TypeError("declined " + amount);\n}\n';
const good = transformSync(SOURCE, { minify: true, sourcemap: 'external', sourcefile: 'src/checkout.js', format: 'esm' });
const throwFrame = (file: string): JsFrame => ({ absPath: file, lineno: 1, colno: good.code.indexOf('throw') + 1 });

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
function heapUsed(): number {
  gc();
  return process.memoryUsage().heapUsed;
}

/** A public DSN's events and an upload: what symbolication costs in statements and memory, per organization. */
describe('SourceMapSymbolicator on PostgreSQL', () => {
  let db: TestDatabase;
  let symbolicator: SourceMapSymbolicatorService;
  const clock = new FixedClock(new Date('2026-11-20T12:00:00.000Z'));
  const artifacts = new ArtifactsRepository();
  let statements = 0;
  let sql: Sql;

  beforeAll(async () => {
    db = await openTestDatabase();
    sql = {
      query: (text, params) => (statements++, db.database.query(text, params)),
      execute: (text, params) => (statements++, db.database.execute(text, params)),
    };
    symbolicator = new SourceMapSymbolicatorService(artifacts, releasesConfig({}), clock);
  }, 60_000);

  afterAll(async () => {
    await symbolicator?.onModuleDestroy();
    await db?.close();
  });

  const upload = (organizationId: string, release: string | null, files: Array<{ url: string; type: string; debugId?: string; content: Buffer }>) =>
    artifacts.saveBundle(
      db.database,
      { organizationId, checksum: randomUUID(), bundleId: randomUUID(), release, dist: null, projectIds: ['10'], now: clock.now() },
      files.map((file, i) => ({
        path: `f${i}`,
        url: file.url,
        type: file.type,
        debugId: file.debugId ?? null,
        sourcemap: null,
        content: file.content,
        checksum: createHash('sha1').update(file.content).digest('hex'),
      })),
    );

  /** An event of 1,000 frames, each in a file of its own reported with a debug ID nothing was uploaded for. */
  const flood = (organizationId: string, release?: string): SymbolicationRequest<JsFrame> => {
    const files = Array.from({ length: 1000 }, (_, i) => `https://app.example.com/static/chunk-${i}.js`);
    return {
      organizationId,
      projectId: '10',
      release,
      debugImages: files.map((code_file, i) => ({ type: 'sourcemap', code_file: i % 2 === 0 ? code_file : `other-${i}.js`, debug_id: randomUUID() })),
      stacktraces: [files.map(throwFrame)],
    };
  };

  const counted = async <T>(work: () => Promise<T>): Promise<{ statements: number; result: T }> => {
    const before = statements;
    const result = await work();
    return { statements: statements - before, result };
  };

  it('answers an organization that never uploaded anything with one statement, remembered for a while', async () => {
    const first = await counted(() => symbolicator.symbolicate(sql, flood('2', 'web@1')));
    expect(first.statements).toBe(1);
    expect(first.result.stacktraces).toEqual([null]);
    expect((await counted(() => symbolicator.symbolicate(sql, flood('2', 'web@1')))).statements).toBe(0);
    clock.advance(31_000);
    expect((await counted(() => symbolicator.symbolicate(sql, flood('2', 'web@1')))).statements).toBe(1);
  });

  it('looks up 1,000 files and debug images in a few statements, remembers what it did not find, and finds a later upload', async () => {
    const debugId = randomUUID();
    await upload('1', 'web@1', [{ url: '~/static/app.min.js.map', type: 'source_map', debugId, content: Buffer.from(good.map) }]);
    const request = flood('1', 'web@1');
    const first = await counted(() => symbolicator.symbolicate(sql, request));
    // The organization, the debug IDs, the release, the URLs: each once for every file of the event.
    expect(first.statements).toBeLessThanOrEqual(5);
    expect(first.result.stacktraces).toEqual([null]);
    expect(first.result.errors.length).toBe(50);
    expect((await counted(() => symbolicator.symbolicate(sql, flood('1', 'web@1')))).statements).toBeLessThanOrEqual(2);
    expect((await counted(() => symbolicator.symbolicate(sql, request))).statements).toBe(0);

    // The first file's map is uploaded later: found once the miss is forgotten, and then remembered.
    const file = request.stacktraces[0][0].absPath as string;
    const lateId = (request.debugImages ?? []).find((image) => image.code_file === file)?.debug_id as string;
    await upload('1', null, [{ url: '~/static/chunk-0.js.map', type: 'source_map', debugId: lateId, content: Buffer.from(good.map) }]);
    expect((await counted(() => symbolicator.symbolicate(sql, request))).statements).toBe(0);
    clock.advance(31_000);
    const found = await counted(() => symbolicator.symbolicate(sql, request));
    expect(found.result.stacktraces[0]?.[0]).toMatchObject({ filename: 'src/checkout.js', lineno: 5 });
    expect(found.statements).toBeLessThanOrEqual(5);
  });

  it('refuses maps of 32 MiB of ";" and of millions of segments as invalid for the event, the main heap unchanged', async () => {
    const map = (mappings: string) => Buffer.from(JSON.stringify({ version: 3, sources: ['a.js'], names: [], mappings }));
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    await upload('3', null, [
      { url: '~/lines.js.map', type: 'source_map', debugId: ids[0], content: map(';'.repeat(32 * MIB - 100)) },
      { url: '~/segments.js.map', type: 'source_map', debugId: ids[1], content: map(`${'AAAA,'.repeat(3_000_000)}AAAA`) },
      { url: '~/good.js.map', type: 'source_map', debugId: ids[2], content: Buffer.from(good.map) },
    ]);
    const files = ['lines.js', 'segments.js', 'good.js'];
    const before = heapUsed();
    const result = await symbolicator.symbolicate(sql, {
      organizationId: '3',
      projectId: '10',
      debugImages: files.map((code_file, i) => ({ type: 'sourcemap', code_file, debug_id: ids[i] })),
      stacktraces: [files.map(throwFrame)],
    });
    expect(heapUsed() - before).toBeLessThan(32 * MIB);
    expect(result.errors).toEqual([
      expect.objectContaining({ type: 'js_invalid_source', data: { url: '~/lines.js.map' } }),
      expect.objectContaining({ type: 'js_invalid_source', data: { url: '~/segments.js.map' } }),
    ]);
    expect(result.stacktraces[0]?.[2]).toMatchObject({ filename: 'src/checkout.js', lineno: 5 });
  });
});
