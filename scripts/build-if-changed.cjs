// `npm start` builds first; this skips the build when no source changed since the last one. A
// stamp in dist/ records when that build began; any newer file or directory (a directory's time
// changes when a file in it is added, renamed or removed) among the build's inputs means rebuild.
const { spawnSync } = require('node:child_process');
const { mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const stamp = join(root, 'dist', '.build-started');
const INPUTS = [
  'apps',
  'libs',
  'modules',
  'migrations',
  'bench',
  'ormconfig.ts',
  'package.json',
  'package-lock.json',
  '.swcrc',
  'tsconfig.json',
  'scripts/build-web.cjs',
];

function newestChange(path) {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return 0;
  }
  let newest = stats.mtimeMs;
  if (stats.isDirectory()) {
    for (const entry of readdirSync(path)) {
      if (entry !== 'node_modules') newest = Math.max(newest, newestChange(join(path, entry)));
    }
  }
  return newest;
}

function builtAt() {
  try {
    return statSync(stamp).mtimeMs;
  } catch {
    return 0;
  }
}

const sources = Math.max(...INPUTS.map((input) => newestChange(join(root, input))));
if (sources < builtAt()) process.exit(0);
const started = new Date();
const build = spawnSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
if (build.status !== 0) process.exit(build.status ?? 1);
mkdirSync(join(root, 'dist'), { recursive: true });
writeFileSync(stamp, started.toISOString());
utimesSync(stamp, started, started);
