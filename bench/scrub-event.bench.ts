import 'reflect-metadata';
import { newHexId, PROJECT_DATA_PRIVACY_DEFAULTS } from '@faultline/kernel';
import { dataScrubber, type DataScrubber, NO_SCRUBBING, normalizeEvent, prepareEvent } from '../libs/ingest/src/domain';
import { event } from './ingest.bench';

/**
 * The CPU data scrubbing adds to an event's processing: the processor's pure steps (parse the
 * payload, normalise, prepare) on the ingest benchmark's realistic @sentry/node events, without
 * scrubbing, with a new project's defaults, and with every setting on (IP addresses and 10
 * sensitive fields), interleaved in rounds so that the machine's load falls on each alike.
 *
 * Usage: npm run -s build && node dist/bench/scrub-event.bench.js
 * Env: BENCH_ROUNDS (default 10), BENCH_EVENTS (events per round and variant, default 2000)
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 2000);

const payloads = Array.from({ length: EVENTS }, (_, index) => JSON.stringify(event(index)));
const variants: Array<[string, DataScrubber]> = [
  ['off', NO_SCRUBBING],
  ['defaults', dataScrubber(PROJECT_DATA_PRIVACY_DEFAULTS)],
  [
    'everything',
    dataScrubber({
      ...PROJECT_DATA_PRIVACY_DEFAULTS,
      scrubIPAddresses: true,
      sensitiveFields: ['order_ref', 'card_holder', 'iban', 'ssn', 'dob', 'phone', 'address', 'zip', 'national_id', 'tax_id'],
    }),
  ],
];

function run(scrubber: DataScrubber): number {
  const started = process.cpuUsage();
  for (const payload of payloads) {
    const normalized = normalizeEvent(JSON.parse(payload), { receivedAt: new Date(), newEventId: newHexId() });
    prepareEvent(normalized, scrubber);
  }
  const used = process.cpuUsage(started);
  return (used.user + used.system) / EVENTS;
}

const samples = new Map<string, number[]>(variants.map(([name]) => [name, []]));
for (const [, scrubber] of variants) run(scrubber);
for (let round = 0; round < ROUNDS; round++) for (const [name, scrubber] of variants) samples.get(name)?.push(run(scrubber));

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const off = median(samples.get('off') ?? []);
console.log(`| variant | CPU µs per event (median of ${ROUNDS} rounds of ${EVENTS}) | added by scrubbing |`);
console.log('|---|---|---|');
for (const [name] of variants) {
  const value = median(samples.get(name) ?? []);
  console.log(`| ${name} | ${value.toFixed(1)} | ${(value - off).toFixed(1)} µs |`);
}
