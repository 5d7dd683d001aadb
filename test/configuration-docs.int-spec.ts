import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');
const PAGE = 'docs/configuration.md';

/** The code that runs as the service, its CLI, scripts and extension modules, and the test support; not specs, fixtures or benchmarks (whose settings bench/README.md describes). */
function sourceFiles(): string[] {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'apps', 'libs', 'modules', 'scripts', 'test'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((file) => /\.(ts|tsx|js|cjs|mjs)$/.test(file))
    .filter((file) => !/\.(spec|int-spec|e2e-spec)\.ts$/.test(file) && !file.startsWith('test/fixtures/'));
}

const NAME = '([A-Z][A-Z0-9_]*)';
/** Every way the code reads a setting: `process.env.X`, an environment record's `env.X` / `environment.X` (what each `*-config.ts` gets), `env['X']`, `integerSetting(env, 'X', …)`, and `const { X } = env`. */
const READERS = [
  new RegExp(String.raw`\b(?:process\.env|env|environment)\.${NAME}\b`, 'g'),
  new RegExp(String.raw`\b(?:process\.env|env|environment)\[\s*['"\x60]${NAME}['"\x60]\s*\]`, 'g'),
  new RegExp(String.raw`\bintegerSetting\(\s*[\w.]+\s*,\s*'${NAME}'`, 'g'),
];
const DESTRUCTURED = /\{([^{}]*)\}\s*=\s*(?:process\.env|env|environment)\b/g;
/** Reads by a computed name would hide the setting from this test; the only ones allowed are these. */
const COMPUTED_READ = /\b(?:process\.env|env|environment)\[\s*(?!['"`])/g;
const ALLOWED_COMPUTED = new Set([
  'libs/platform/src/config/app-config.ts: const raw = env[name];', // integerSetting: its callers name the setting, matched above
  'test/support/mcp-client.ts: delete env[name];', // a child process's environment, not a read
]);

interface Reads {
  readonly names: Map<string, string[]>;
  readonly computed: string[];
}

function readsOf(files: string[]): Reads {
  const names = new Map<string, string[]>();
  const computed: string[] = [];
  const note = (name: string, file: string) => names.set(name, [...(names.get(name) ?? []), file]);
  for (const file of files) {
    const source = readFileSync(join(ROOT, file), 'utf8');
    for (const reader of READERS) for (const match of source.matchAll(reader)) note(match[1], file);
    for (const match of source.matchAll(DESTRUCTURED)) {
      for (const key of match[1].split(',')) {
        const name = /^\s*([A-Z][A-Z0-9_]*)\b/.exec(key)?.[1];
        if (name) note(name, file);
      }
    }
    for (const match of source.matchAll(COMPUTED_READ)) {
      const line = source.slice(source.lastIndexOf('\n', match.index) + 1, source.indexOf('\n', match.index)).trim();
      if (!ALLOWED_COMPUTED.has(`${file}: ${line}`)) computed.push(`${file}: ${line}`);
    }
  }
  return { names, computed };
}

/** The settings the page's table names: the first column, one backquoted name a row. */
function documented(): Set<string> {
  const page = readFileSync(join(ROOT, PAGE), 'utf8');
  return new Set([...page.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((match) => match[1]));
}

describe(`${PAGE} names every environment setting the code reads`, () => {
  const reads = readsOf(sourceFiles());

  it('finds the readers it looks for (platform, a context config, the mail config, a module, the CLI, the tests)', () => {
    for (const name of [
      'PORT',
      'TRUST_PROXY',
      'SOURCE_MAP_WORKERS',
      'INVITE_MAILS_PER_ORGANIZATION_HOUR',
      'SMTP_URL',
      'TICKET_TRACKER_URL',
      'FAULTLINE_PASSWORD',
      'CHROMIUM_PATH',
    ]) {
      expect(reads.names.has(name)).toBe(true);
    }
  });

  it('documents every setting read', () => {
    const table = documented();
    const missing = [...reads.names].filter(([name]) => !table.has(name)).map(([name, files]) => `${name} (read in ${[...new Set(files)].join(', ')})`);
    expect(missing).toEqual([]);
  });

  it('documents no setting that nothing reads any more', () => {
    expect([...documented()].filter((name) => !reads.names.has(name))).toEqual([]);
  });

  it('reads no setting by a computed name, which this check could not see', () => {
    expect(reads.computed).toEqual([]);
  });
});
