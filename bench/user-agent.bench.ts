import 'reflect-metadata';
import { newHexId, PROJECT_DATA_PRIVACY_DEFAULTS } from '@faultline/kernel';
import { dataScrubber, normalizeEvent, prepareEvent } from '../libs/ingest/src/domain';
import { event } from './ingest.bench';

/**
 * The CPU the User-Agent contexts add to an event's processing (parse, normalise, prepare) on the
 * ingest benchmark's events: without a User-Agent header, with one of 50 browsers' (the cache
 * answers), and with a new header each event (every one parsed: the worst case), interleaved in
 * rounds so that the machine's load falls on each alike.
 *
 * Usage: npm run -s build && node dist/bench/user-agent.bench.js
 * Env: BENCH_ROUNDS (default 10), BENCH_EVENTS (events per round and variant, default 2000)
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 2000);
const scrubber = dataScrubber(PROJECT_DATA_PRIVACY_DEFAULTS);

const userAgent = (index: number) =>
  `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${100 + index}.0.${index}.0 Safari/537.36`;
const withHeader = (index: number, header: string | undefined) => {
  const payload = event(index) as Record<string, unknown>;
  const request = { ...(payload.request as object), headers: header === undefined ? {} : { 'User-Agent': header } };
  return JSON.stringify({ ...payload, request });
};
let round = 0;
const variants: Array<[string, () => string[]]> = [
  ['no header', () => Array.from({ length: EVENTS }, (_, index) => withHeader(index, undefined))],
  ['50 browsers', () => Array.from({ length: EVENTS }, (_, index) => withHeader(index, userAgent(index % 50)))],
  ['all new', () => Array.from({ length: EVENTS }, (_, index) => withHeader(index, userAgent(round * EVENTS + index + 1000)))],
];

function run(payloads: readonly string[]): number {
  const started = process.cpuUsage();
  for (const payload of payloads) prepareEvent(normalizeEvent(JSON.parse(payload), { receivedAt: new Date(), newEventId: newHexId() }), scrubber);
  const used = process.cpuUsage(started);
  return (used.user + used.system) / payloads.length;
}

const results = new Map<string, number[]>(variants.map(([name]) => [name, []]));
for (round = 0; round < ROUNDS; round++) {
  for (const [name, payloads] of variants) {
    const batch = payloads();
    const micros = run(batch);
    if (round > 0) results.get(name)?.push(micros);
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const [name, micros] of results) console.log(`${name}: ${median(micros).toFixed(1)} µs CPU per event (median of ${micros.length} rounds)`);
