// The other tenant, in a process of its own so that a server holding its event loop cannot also hold
// the measurement: samples a cheap authenticated GET at a fixed rate (a slow answer does not delay
// the next sample), and reports one error through the official @sentry/node SDK, then watches for
// its issue. Usage: node neighbour-probe.cjs '<json options>'; prints "ready", waits for "go" on
// stdin, and prints one JSON line of results at the end.
/* global fetch, AbortSignal -- Node's own, as in the browser */
const { randomUUID } = require('node:crypto');
const { performance } = require('node:perf_hooks');
const { setInterval, clearInterval } = require('node:timers');
const { setTimeout: sleep } = require('node:timers/promises');
const Sentry = require('@sentry/node');

const options = JSON.parse(process.argv[2]);
const { baseUrl, token, org, project, dsn, windowMs, eventAtMs, sampleEveryMs, eventDeadlineMs, requestTimeoutMs } = options;

Sentry.init({ dsn, release: 'neighbour@1.0.0', environment: 'e2e', defaultIntegrations: false, tracesSampleRate: 0 });

const auth = { authorization: `Bearer ${token}` };

/** One request's latency in ms; a refused connection or a time-out counts as a failure at its full time. */
async function timed(url, headers = {}) {
  const start = performance.now();
  try {
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(requestTimeoutMs) });
    await response.arrayBuffer();
    return { ms: performance.now() - start, status: response.status };
  } catch {
    return { ms: performance.now() - start, status: 0 };
  }
}

async function main() {
  const warm = await timed(`${baseUrl}/api/0/projects/${org}/${project}/`, auth);
  if (warm.status !== 200) throw new Error(`the probe cannot read its project: ${warm.status}`);
  process.stdout.write('ready\n');
  await new Promise((resolve) => process.stdin.once('data', resolve));
  process.stdin.destroy();

  const samples = [];
  const health = [];
  const pending = [];
  const sampler = setInterval(() => {
    pending.push(timed(`${baseUrl}/api/0/projects/${org}/${project}/`, auth).then((sample) => samples.push(sample)));
  }, sampleEveryMs);
  const healthSampler = setInterval(() => {
    pending.push(timed(`${baseUrl}/health/live`).then((sample) => health.push(sample)));
  }, 500);

  await sleep(eventAtMs);
  const marker = `neighbour-${randomUUID().slice(0, 8)}`;
  const sentAt = performance.now();
  // Its own fingerprint: one issue per probe, whatever the earlier probes' errors were.
  Sentry.captureException(new Error(`Checkout failed for ${marker}`), { fingerprint: [marker] });
  const flushed = await Sentry.flush(requestTimeoutMs);
  let eventMs = null;
  while (performance.now() - sentAt < eventDeadlineMs) {
    const response = await fetch(`${baseUrl}/api/0/projects/${org}/${project}/issues/?query=${marker}`, {
      headers: auth,
      signal: AbortSignal.timeout(requestTimeoutMs),
    }).catch(() => undefined);
    const issues = response?.ok ? await response.json() : [];
    if (Array.isArray(issues) && issues.length > 0) {
      eventMs = performance.now() - sentAt;
      break;
    }
    await sleep(100);
  }
  const left = windowMs - (performance.now() - sentAt) - eventAtMs;
  if (left > 0) await sleep(left);
  clearInterval(sampler);
  clearInterval(healthSampler);
  await Promise.all(pending);
  await Sentry.close(1000);
  process.stdout.write(`${JSON.stringify({ samples, health, eventMs, flushed })}\n`, () => process.exit(0));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
