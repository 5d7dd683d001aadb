import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import { percentile } from './bench-support';

/**
 * Open-loop load at a steady rate: request i is due at start + i / rate, whatever the server does,
 * and its latency runs from that due time to the end of its response (so a server or a generator
 * that falls behind shows as latency, never as fewer requests). Spread evenly, as many independent
 * SDKs send; autocannon's `--overallRate` instead lets every connection send its per-second quota
 * back to back at the start of each second.
 *
 * Usage: node dist/bench/paced-load.js <config.json>, where the config is a PacedLoadConfig.
 * Prints an autocannon-shaped JSON summary (the fields the benches read).
 */
export interface PacedLoadConfig {
  url: string;
  headers: Record<string, string>;
  /** Sent in turn. */
  bodies: string[];
  ratePerSecond: number;
  /** Sent and counted, but kept out of the latency figures: the generator's and the server's start. */
  warmupSeconds: number;
  /** Measured, after the warm-up. */
  durationSeconds: number;
  connections: number;
}

const TIMEOUT_MS = 10_000;

async function run(config: PacedLoadConfig) {
  const url = new URL(config.url);
  const pool = new Pool(url.origin, { connections: config.connections, pipelining: 1, headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS });
  const seconds = config.warmupSeconds + config.durationSeconds;
  const total = Math.round(config.ratePerSecond * seconds);
  const measuredFrom = Math.round(config.ratePerSecond * config.warmupSeconds);
  let ok = 0;
  const intervalMs = 1000 / config.ratePerSecond;
  const latencies: number[] = [];
  const everyLatency: number[] = [];
  const statusCounts = new Map<number, number>();
  let errors = 0;
  let timeouts = 0;
  let scheduled = 0;
  const requests: Array<Promise<void>> = [];

  const path = url.pathname + url.search;
  const bodies = config.bodies.map((body) => Buffer.from(body));
  const headers = Object.entries(config.headers).flat();
  // dispatch() with a bare handler: no response body stream per request, so the generator
  // takes as little as it can of the CPU it shares with the server under test.
  const send = (index: number, dueAt: number) =>
    new Promise<void>((resolve) => {
      let status = 0;
      pool.dispatch(
        { path, method: 'POST', headers, body: bodies[index % bodies.length] },
        {
          // Required: without it undici never sends the request.
          onConnect: () => undefined,
          onHeaders: (statusCode: number) => {
            status = statusCode;
            return true;
          },
          onData: () => true,
          onComplete: () => {
            statusCounts.set(status, (statusCounts.get(status) ?? 0) + 1);
            if (status >= 200 && status < 300) {
              ok++;
              const latency = performance.now() - dueAt;
              everyLatency.push(latency);
              if (index >= measuredFrom) latencies.push(latency);
            }
            resolve();
          },
          onError: (error: Error) => {
            if ((error as { code?: string }).code?.includes('TIMEOUT')) timeouts++;
            else errors++;
            resolve();
          },
        },
      );
    });

  const start = performance.now();
  await new Promise<void>((resolve) => {
    const tick = () => {
      const due = Math.min(total, Math.floor((performance.now() - start) / intervalMs) + 1);
      while (scheduled < due) {
        requests.push(send(scheduled, start + scheduled * intervalMs));
        scheduled++;
      }
      if (scheduled < total) setTimeout(tick, Math.max(0, start + scheduled * intervalMs - performance.now()));
      else resolve();
    };
    tick();
  });
  await Promise.all(requests);
  const elapsedSeconds = (performance.now() - start) / 1000;
  await pool.close();

  const at = (values: number[], p: number) => Math.round(percentile(values, p));
  const codes = [...statusCounts];
  return {
    // Over the time until the last answer: a server that falls behind answers late, and at a lower rate.
    requests: { average: Math.round((ok / Math.max(seconds, elapsedSeconds)) * 100) / 100, total: ok, sent: scheduled },
    latency: {
      p50: at(latencies, 50),
      p90: at(latencies, 90),
      p99: at(latencies, 99),
      max: at(latencies, 100),
      average: latencies.length ? latencies.reduce((sum, value) => sum + value, 0) / latencies.length : NaN,
    },
    /** The same over the whole run, warm-up included. */
    latencyWithWarmup: { p50: at(everyLatency, 50), p99: at(everyLatency, 99), max: at(everyLatency, 100) },
    throughput: { average: 0 },
    duration: elapsedSeconds,
    errors,
    timeouts,
    non2xx: codes.filter(([code]) => code < 200 || code >= 300).reduce((sum, [, n]) => sum + n, 0),
    '2xx': ok,
    statusCodeStats: Object.fromEntries(codes.map(([code, count]) => [String(code), { count }])),
  };
}

if (require.main === module) {
  const config = JSON.parse(readFileSync(process.argv[2], 'utf8')) as PacedLoadConfig;
  run(config).then(
    (summary) => process.stdout.write(JSON.stringify(summary)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
