import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { transformSync } from 'esbuild';
import { SourceMapWorkers, type SourceMapWorkersSettings } from './source-map-workers';

const MIB = 1024 * 1024;
const SETTINGS: SourceMapWorkersSettings = { workers: 1, heapMb: 256, cacheBytes: 64 * MIB, maxDecodedBytes: 128 * MIB, timeoutMs: 30_000 };

const SOURCE =
  'export function checkout(cart) {\n  return chargeCard(cart.total);\n}\nfunction chargeCard(amount) {\n  throw new TypeError("declined " + amount);\n}\n';
const good = transformSync(SOURCE, { minify: true, sourcemap: 'external', sourcefile: 'src/checkout.js', format: 'esm' });
const throwAt = (map = 0): [number, number, number] => [map, 1, good.code.indexOf('throw')];

function mapOf(mappings: string, padding = ''): Buffer {
  return Buffer.from(`{"version":3,"sources":["a.js"],"names":[],"mappings":"${mappings}"}${padding}`);
}

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** The main thread's heap after a full collection. */
function heapUsed(): number {
  gc();
  return process.memoryUsage().heapUsed;
}

describe('SourceMapWorkers', () => {
  let workers: SourceMapWorkers;
  afterEach(async () => {
    await workers?.stop();
  });

  const reader =
    (contents: Record<string, Buffer>, reads: string[][] = []) =>
    async (keys: string[]) => {
      reads.push(keys);
      return new Map(keys.map((key) => [key, contents[key] ?? null]));
    };

  it('answers positions through a map it parsed once and keeps', async () => {
    workers = new SourceMapWorkers(SETTINGS);
    const reads: string[][] = [];
    const read = reader({ good: Buffer.from(good.map) }, reads);
    const first = await workers.resolve('org', ['good'], [throwAt()], read);
    expect(first).toEqual({ invalid: [false], positions: [expect.objectContaining({ source: 'src/checkout.js', line: 5, column: 2 })] });
    expect(await workers.resolve('org', ['good'], [throwAt()], read)).toEqual(first);
    expect(await workers.resolve('org', ['good'], [[0, 1, good.code.indexOf('return')], throwAt()], read)).toEqual({
      invalid: [false],
      positions: [expect.objectContaining({ line: 2 }), first.positions[0]],
    });
    expect(reads).toEqual([['good']]);
  });

  it('refuses 32 MiB of ";" and a map of millions of segments without decoding them, the main heap unchanged', async () => {
    workers = new SourceMapWorkers(SETTINGS);
    const contents = { lines: mapOf(';'.repeat(32 * MIB - 100)), segments: mapOf(`${'AAAA,'.repeat(3_000_000)}AAAA`), good: Buffer.from(good.map) };
    const before = heapUsed();
    const started = Date.now();
    const answers = await workers.resolve('org', ['lines', 'segments', 'good'], [[0, 1, 0], [1, 1, 0], throwAt(2)], reader(contents));
    expect(answers.invalid).toEqual([true, true, false]);
    expect(answers.positions).toEqual([null, null, expect.objectContaining({ line: 5 })]);
    // Decoded, the first would take about 1.4 GB and the second 330 MB; refused, they cost a scan.
    expect(heapUsed() - before).toBeLessThan(32 * MIB);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('loses only its thread to a map that fills its heap, refuses that map from then on, and goes on with the others', async () => {
    // A budget above the heap: the map passes the count and blows up while decoding.
    workers = new SourceMapWorkers({ ...SETTINGS, heapMb: 64, cacheBytes: 16 * MIB, maxDecodedBytes: 4096 * MIB });
    const reads: string[][] = [];
    const read = reader({ bomb: mapOf(';'.repeat(8 * MIB)), good: Buffer.from(good.map) }, reads);
    expect((await workers.resolve('org', ['good'], [throwAt()], read)).invalid).toEqual([false]);
    const before = heapUsed();
    expect(await workers.resolve('org', ['bomb'], [[0, 1, 0]], read)).toEqual({ invalid: [true], positions: [null] });
    expect(heapUsed() - before).toBeLessThan(32 * MIB);
    // A position not answered before goes to the thread that replaced the dead one.
    expect(
      await workers.resolve(
        'org',
        ['bomb', 'good'],
        [
          [0, 1, 0],
          [1, 1, good.code.indexOf('return')],
        ],
        read,
      ),
    ).toEqual({
      invalid: [true, false],
      positions: [null, expect.objectContaining({ line: 2 })],
    });
    // The good map was read again by the thread that replaced the dead one; the bomb was not: it is known to be fatal.
    expect(reads).toEqual([['good'], ['bomb'], ['good']]);
  });

  it('stops a thread that works too long on one request, and answers its maps invalid', async () => {
    workers = new SourceMapWorkers({ ...SETTINGS, heapMb: 512, maxDecodedBytes: 240 * MIB, timeoutMs: 100 });
    // Within the budget and the heap, but seconds of decoding.
    const slow = mapOf(`${'AAAA,'.repeat(2_000_000)}AAAA`);
    const read = reader({ slow, good: Buffer.from(good.map) });
    expect(await workers.resolve('org', ['slow'], [[0, 1, 0]], read)).toEqual({ invalid: [true], positions: [null] });
    expect(await workers.resolve('org', ['good'], [throwAt()], read)).toEqual({ invalid: [false], positions: [expect.objectContaining({ line: 5 })] });
  });
});
