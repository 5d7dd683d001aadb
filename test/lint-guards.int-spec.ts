import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = join(__dirname, '..');
const ESLINT = join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js');

/** The no-restricted-syntax messages ESLint gives for `source` as if it were the file at `path`, with their lines. */
async function restricted(path: string, source: string): Promise<Array<{ line: number; message: string }>> {
  const linting = run(process.execPath, [ESLINT, '--stdin', '--stdin-filename', path, '--format', 'json'], { cwd: ROOT });
  linting.child.stdin?.end(source);
  // ESLint exits 1 when it reports errors: its report is still on stdout.
  const { stdout } = await linting.catch((error: { stdout?: string }) => {
    if (error.stdout === undefined) throw error;
    return { stdout: error.stdout };
  });
  const [report] = JSON.parse(stdout) as Array<{ messages: Array<{ ruleId: string | null; line: number; message: string }> }>;
  return report.messages.filter((message) => message.ruleId === 'no-restricted-syntax').map(({ line, message }) => ({ line, message }));
}

const PROBE = [
  `export const a = /^\\d{1,18}$/.test('1');`,
  `export const b = /^[0-9]{1,19}$/.test('1');`,
  `export const c = Date.now();`,
  `export const d = new Date();`,
  `export const e = (pattern: string) => new RegExp(pattern);`,
  `export const f = [new Date(0), performance.now(), /^\\d+$/, /^(\\d{1,19})\\.x$/];`,
  `export const g = /^[0-9a-f]{32}$/.test('x');`,
  `export const h = (stream: { loadedVersion: number }) => stream.loadedVersion;`,
  `export const i = /^-?\\d{1,18}$/.test('-1');`,
  `export const j = new Map<string, { value: string; until: number }>();`,
].join('\n');

const NUMERIC_ID = 'use isNumericId from @faultline/kernel';
const CLOCK = 'take the time from the injected CLOCK';
const REGEXP = expect.stringContaining('No RegExp built from a string');
const HEX_ID = expect.stringContaining('No 32-hex-digit pattern');
const AGGREGATE = expect.stringContaining('Append an aggregate through AggregateStreams');
const TTL_CACHE = expect.stringContaining('No hand-written TTL cache');

/** The small rules with one owner: ESLint points a new copy at the owner to call. */
describe('lint guards for rules with one owner', () => {
  it('refuses an inline row-id pattern and a wall-clock reading in server code', async () => {
    expect(await restricted('libs/issues/src/infrastructure/probe.ts', PROBE)).toEqual([
      { line: 1, message: NUMERIC_ID },
      { line: 2, message: NUMERIC_ID },
      { line: 3, message: CLOCK },
      { line: 4, message: CLOCK },
      { line: 5, message: REGEXP },
      { line: 7, message: HEX_ID },
      { line: 8, message: AGGREGATE },
      { line: 9, message: NUMERIC_ID },
      { line: 10, message: TTL_CACHE },
    ]);
    expect(await restricted('apps/api/src/probe.ts', PROBE)).toEqual(expect.arrayContaining([{ line: 3, message: CLOCK }]));
  });

  it('lets the owner of the id rules write them, and the browser client read its own clock', async () => {
    expect(await restricted('libs/kernel/src/ids.ts', PROBE)).toEqual([
      { line: 3, message: CLOCK },
      { line: 4, message: CLOCK },
      { line: 5, message: REGEXP },
      { line: 8, message: AGGREGATE },
      { line: 10, message: TTL_CACHE },
    ]);
    expect(await restricted('apps/web/client/probe.tsx', PROBE)).toEqual([
      { line: 1, message: NUMERIC_ID },
      { line: 2, message: NUMERIC_ID },
      { line: 5, message: REGEXP },
      { line: 7, message: HEX_ID },
      { line: 8, message: AGGREGATE },
      { line: 9, message: NUMERIC_ID },
      { line: 10, message: TTL_CACHE },
    ]);
  });

  it('leaves tests free to build their own expectations and clocks', async () => {
    expect(await restricted('libs/issues/src/infrastructure/probe.spec.ts', PROBE)).toEqual([]);
  });
});
