const RESOLUTIONS: Record<string, number> = { '10s': 10, '1h': 3600, '1d': 86400 };
/** Sentry's default choice: the first resolution whose usual number of buckets spans the range. */
const DEFAULT_CHOICES: ReadonlyArray<[string, number]> = [
  ['10s', 360],
  ['1h', 168],
  ['1d', 90],
];

export interface StatsWindow {
  readonly resolution: string;
  readonly step: number;
  /** First and last bucket starts, epoch seconds. */
  readonly start: number;
  readonly end: number;
}

const MAX_BUCKETS = 10_000;

/** Reads stats/'s since, until and resolution as Sentry does: until defaults to now, since to a day before. */
export function resolveStatsWindow(params: { since?: string; until?: string; resolution?: string }, nowSeconds: number): StatsWindow | { error: string } {
  const number = (value: string | undefined) => (value === undefined || value === '' ? undefined : Number(value));
  const until = number(params.until) ?? nowSeconds;
  const since = number(params.since) ?? until - 86399;
  if (!Number.isFinite(until) || !Number.isFinite(since)) return { error: 'since and until must be Unix timestamps' };
  if (since > until) return { error: 'since must be before until' };
  let resolution = params.resolution;
  if (resolution === undefined || resolution === '') {
    resolution = DEFAULT_CHOICES.find(([name, buckets]) => RESOLUTIONS[name] * buckets >= until - since)?.[0] ?? '1d';
  }
  const step = RESOLUTIONS[resolution];
  if (!step) return { error: 'Invalid resolution' };
  const start = Math.floor(since / step) * step;
  const end = Math.floor(until / step) * step;
  if ((end - start) / step + 1 > MAX_BUCKETS)
    return { error: `The range holds more than ${MAX_BUCKETS} buckets at ${resolution}; choose a coarser resolution` };
  return { resolution, step, start, end };
}
