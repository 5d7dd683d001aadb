import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { generatedPositionFor, TraceMap } from '@jridgewell/trace-mapping';
import { EventProcessing } from '@faultline/ingest';
import { Database, loadConfig } from '@faultline/platform';
import { SourceMapSymbolicator } from '@faultline/releases';
import { createApp } from '../apps/api/src/create-app';
import { environment, recreateDatabase, ROOT, round, saveResults } from './bench-support';

/**
 * What source maps cost at processing: the Node CPU the event processor spends per JavaScript
 * event (a dozen minified frames) without source maps, and with every frame resolved through a
 * 2–5 MB source map per event group once the maps are cached. The maps are uploaded by the real
 * sentry-cli (`sourcemaps inject` + `upload`) to the whole service (ROLE=api, so only this bench
 * drains the queue), and the events go through the store endpoint.
 *
 * Usage: npm run -s build && node dist/bench/symbolication.bench.js
 * Env: DATABASE_URL (server to create faultline_bench_symbolication on), BENCH_GROUPS (4: bundles,
 *      each its own event group and map), BENCH_FUNCTIONS (9000: functions per bundle, which sets
 *      the map's size), BENCH_EVENTS (2000 per phase), BENCH_ROUNDS (3: baseline and mapped phases,
 *      alternated; medians reported).
 */
const GROUPS = Number(process.env.BENCH_GROUPS ?? 4);
const FUNCTIONS = Number(process.env.BENCH_FUNCTIONS ?? 9000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const FRAMES = 12;
const PORT = 9204;
const TOKEN = 'bench-symbolication-token';
const DATABASE = 'faultline_bench_symbolication';
const run = promisify(execFile);

/** A large application: functions that call each other, one per few lines, some with local names minification renames. */
function applicationSource(group: number): string {
  const lines = [`// group ${group}`];
  for (let i = 0; i < FUNCTIONS; i++) {
    lines.push(
      `export function handler${group}_${i}(request, attempts) {`,
      `  const payload = { id: request.id + ${i}, attempts: attempts + 1, label: "step-${i}" };`,
      `  if (payload.attempts > ${FRAMES}) throw new TypeError("handler ${i} gave up after " + payload.attempts);`,
      `  return ${i + 1 < FUNCTIONS ? `handler${group}_${i + 1}(payload, payload.attempts)` : 'payload'};`,
      `}`,
    );
  }
  return lines.join('\n');
}

interface Bundle {
  debugId: string;
  file: string;
  frames: Array<{ lineno: number; colno: number; function: string; pre_context: string[]; context_line: string; post_context: string[] }>;
  mapBytes: number;
}

async function buildBundles(work: string): Promise<void> {
  mkdirSync(join(work, 'src'), { recursive: true });
  for (let group = 0; group < GROUPS; group++) {
    const entry = join(work, `src/app${group}.js`);
    writeFileSync(entry, applicationSource(group));
    await build({
      entryPoints: [entry],
      outfile: join(work, `dist/app${group}.min.js`),
      bundle: true,
      minify: true,
      sourcemap: true,
      format: 'iife',
      globalName: `app${group}`,
      logLevel: 'silent',
    });
  }
}

/** Each bundle's debug ID (injected by sentry-cli) and the minified positions of a chain of calls in its middle, oldest first. */
function readBundles(work: string): Bundle[] {
  return Array.from({ length: GROUPS }, (_, group) => {
    const mapFile = join(work, `dist/app${group}.min.js.map`);
    const json = JSON.parse(readFileSync(mapFile, 'utf8')) as { debug_id?: string; debugId?: string };
    const map = new TraceMap(json as never);
    const source = map.sources.find((s) => s?.endsWith(`app${group}.js`)) as string;
    const minified = readFileSync(join(work, `dist/app${group}.min.js`), 'utf8').split('\n');
    const frames = Array.from({ length: FRAMES }, (_, k) => {
      // The `return handler…(…)` line of function i is line 5i + 5; the call starts at column 9.
      const position = generatedPositionFor(map, { source, line: 5 * (Math.floor(FUNCTIONS / 2) + k) + 5, column: 9 });
      const lineno = position.line ?? 1;
      const colno = (position.column ?? 0) + 1;
      // The source lines @sentry/node's context-lines integration attaches: up to 7 either side, each cut to 140 characters around the column.
      return {
        lineno,
        colno,
        function: 'o',
        pre_context: minified.slice(Math.max(0, lineno - 8), lineno - 1).map((line) => line.slice(0, 140)),
        context_line: minified[lineno - 1].slice(Math.max(0, colno - 70), colno + 70),
        post_context: minified.slice(lineno, lineno + 7).map((line) => line.slice(0, 140)),
      };
    });
    return { debugId: (json.debug_id ?? json.debugId) as string, file: join(work, `dist/app${group}.min.js`), frames, mapBytes: statSync(mapFile).size };
  });
}

function event(bundle: Bundle, withDebugIds: boolean, n: number) {
  return {
    platform: 'node',
    level: 'error',
    release: 'bench@1.0.0',
    exception: {
      values: [
        {
          type: 'TypeError',
          value: `handler gave up after ${n}`,
          stacktrace: { frames: bundle.frames.map((f) => ({ ...f, abs_path: bundle.file, filename: bundle.file, in_app: true })) },
        },
      ],
    },
    ...(withDebugIds ? { debug_meta: { images: [{ type: 'sourcemap', code_file: bundle.file, debug_id: bundle.debugId }] } } : {}),
  };
}

async function send(storeUrl: string, bundles: Bundle[], withDebugIds: boolean): Promise<void> {
  const queue = Array.from({ length: EVENTS }, (_, n) => n);
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      for (let n = queue.shift(); n !== undefined; n = queue.shift()) {
        const response = await fetch(storeUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(event(bundles[n % bundles.length], withDebugIds, n)),
        });
        if (response.status !== 200) throw new Error(`store answered ${response.status}: ${await response.text()}`);
      }
    }),
  );
}

/** Node CPU (user + system) of draining the queue, per event, in milliseconds. */
async function drainCpu(processor: EventProcessing): Promise<number> {
  const before = process.cpuUsage();
  const handled = await processor.drain();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / handled;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'faultline-bench-symbolication-'));
  const databaseUrl = await recreateDatabase(DATABASE);
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    ROLE: 'api',
    PORT: String(PORT),
    LOG_LEVEL: 'warn',
    BOOTSTRAP_TOKEN: TOKEN,
    BOOTSTRAP_ORG: 'acme',
    BOOTSTRAP_PROJECT: 'web',
    DATA_DIR: work,
  });
  const app = await createApp(config);
  await app.listen(PORT, '127.0.0.1');
  try {
    await buildBundles(work);
    const cli = (...args: string[]) =>
      run(join(ROOT, 'node_modules', '.bin', 'sentry-cli'), args, {
        cwd: work,
        env: {
          PATH: process.env.PATH,
          HOME: work,
          SENTRY_URL: `http://127.0.0.1:${PORT}`,
          SENTRY_AUTH_TOKEN: TOKEN,
          SENTRY_ORG: 'acme',
          SENTRY_PROJECT: 'web',
        },
      });
    await cli('sourcemaps', 'inject', 'dist');
    await cli('sourcemaps', 'upload', 'dist');
    const injected = readBundles(work);
    if (injected.some((bundle) => !bundle.debugId)) throw new Error('sentry-cli injected no debug IDs');

    const database = app.get(Database);
    const [key] = await database.query<{ public_key: string; project_id: string }>(`SELECT public_key, project_id::text FROM projects.project_keys LIMIT 1`);
    const storeUrl = `http://127.0.0.1:${PORT}/api/${key.project_id}/store/?sentry_key=${key.public_key}`;
    const processor = app.get(EventProcessing);

    // The first mapped events load and parse every map: measured apart, not part of the steady cost.
    await send(storeUrl, injected, true);
    const cold = await drainCpu(processor);
    const baseline: number[] = [];
    const mapped: number[] = [];
    for (let round_ = 0; round_ < ROUNDS; round_++) {
      for (const withDebugIds of round_ % 2 === 0 ? [false, true] : [true, false]) {
        await send(storeUrl, injected, withDebugIds);
        (withDebugIds ? mapped : baseline).push(await drainCpu(processor));
      }
    }
    const symbolicator = app.get(SourceMapSymbolicator);
    const [project] = await database.query<{ id: string; organization_id: string }>(
      `SELECT id::text, organization_id::text FROM projects.projects WHERE slug = 'web'`,
    );
    const calls = 2000;
    const requests = injected.map((bundle, n) => {
      const sent = event(bundle, true, n);
      return {
        organizationId: project.organization_id,
        projectId: project.id,
        release: sent.release,
        debugImages: sent.debug_meta?.images,
        stacktraces: [
          sent.exception.values[0].stacktrace.frames.map((f) => ({
            absPath: f.abs_path,
            filename: f.filename,
            lineno: f.lineno,
            colno: f.colno,
            function: f.function,
            inApp: true,
            preContext: f.pre_context,
            contextLine: f.context_line,
            postContext: f.post_context,
          })),
        ],
      };
    });
    const started = process.cpuUsage();
    for (let n = 0; n < calls; n++) await symbolicator.symbolicate(database, requests[n % requests.length]);
    const alone = process.cpuUsage(started);
    const summary = {
      environment: await environment(databaseUrl),
      groups: GROUPS,
      framesPerEvent: FRAMES,
      eventsPerPhase: EVENTS,
      rounds: ROUNDS,
      mapMegabytes: injected.map((b) => round(b.mapBytes / 1024 / 1024, 2)),
      cpuMsPerEvent: {
        baseline: round(median(baseline), 3),
        mapped: round(median(mapped), 3),
        firstMappedPhase: round(cold, 3),
        perRound: { baseline: baseline.map((v) => round(v, 3)), mapped: mapped.map((v) => round(v, 3)) },
      },
      overhead: round(median(mapped) / median(baseline) - 1, 3),
      symbolicateAloneCpuMsPerEvent: round((alone.user + alone.system) / 1000 / calls, 3),
    };
    console.log(JSON.stringify(summary, null, 2));
    saveResults('symbolication.json', summary);
  } finally {
    await app.close();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
