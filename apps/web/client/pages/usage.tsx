import { api, enc } from '../api';
import { ErrorNote, Section, Skeleton, useLoad, useTitle } from '../components';
import { navigate, useSearch } from '../router';
import { formatBytes } from '../format-bytes';

interface UsageGroup {
  by: { outcome?: string; category?: string };
  totals: { 'sum(quantity)': number };
  series?: { 'sum(quantity)': number[] };
}

interface Usage {
  intervals?: string[];
  groups: UsageGroup[];
}

/** Sentry's outcomes, in stacking order, with what the page calls them. */
const OUTCOMES = [
  { outcome: 'accepted', label: 'Accepted', class: 'bar-received' },
  { outcome: 'filtered', label: 'Filtered', class: 'bar-filtered' },
  { outcome: 'rate_limited', label: 'Rate limited', class: 'bar-rejected' },
  { outcome: 'invalid', label: 'Invalid', class: 'bar-invalid' },
  { outcome: 'client_discard', label: 'Client discard', class: 'bar-discard' },
] as const;

const CATEGORIES: Array<[string, string]> = [
  ['error', 'Errors'],
  ['transaction', 'Transactions'],
  ['span', 'Spans'],
  ['session', 'Sessions'],
  ['monitor', 'Cron check-ins'],
  ['feedback', 'User feedback'],
  ['attachment', 'Attachments'],
  ['replay', 'Replays'],
  ['profile', 'Profiles'],
  ['log_item', 'Logs'],
];

/** Periods offered, with the interval each is drawn in. */
const PERIODS: Array<[string, string, string]> = [
  ['24h', 'Last 24 hours', '1h'],
  ['7d', 'Last 7 days', '6h'],
  ['14d', 'Last 14 days', '12h'],
  ['30d', 'Last 30 days', '1d'],
  ['90d', 'Last 90 days', '1d'],
];

/** A total as the category counts it: attachments in bytes (23.5 GiB), the rest in items. */
const quantity = (category: string, value: number): string => (category === 'attachment' ? formatBytes(value) : String(value));

const WIDTH = 720;
const HEIGHT = 150;

/** Sentry's usage stats page: what became of the organization's items, by category and outcome, over a period. */
export function UsagePage(props: { params: Record<string, string> }) {
  const { org } = props.params;
  useTitle('Usage stats');
  const search = new URLSearchParams(useSearch());
  const period = PERIODS.find(([value]) => value === search.get('statsPeriod')) ?? PERIODS[0];
  const category = CATEGORIES.find(([value]) => value === search.get('dataCategory')) ?? CATEGORIES[0];
  const choose = (name: string, value: string) => {
    search.set(name, value);
    navigate(`${location.pathname}?${search.toString()}`, { replace: true });
  };
  const base = `/api/0/organizations/${enc(org)}/stats_v2/?field=sum(quantity)&statsPeriod=${period[0]}&interval=${period[2]}`;
  const series = useLoad(() => api<Usage>('GET', `${base}&groupBy=outcome&category=${category[0]}`).then(({ body }) => body), [org, period[0], category[0]]);
  const table = useLoad(() => api<Usage>('GET', `${base}&groupBy=outcome&groupBy=category`).then(({ body }) => body), [org, period[0]]);
  return (
    <>
      <h1>Usage stats</h1>
      <div class="toolbar">
        <label>
          Period{' '}
          <select value={period[0]} onChange={(event) => choose('statsPeriod', event.currentTarget.value)}>
            {PERIODS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Category{' '}
          <select value={category[0]} onChange={(event) => choose('dataCategory', event.currentTarget.value)}>
            {CATEGORIES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <Section title={`${category[1]}, ${period[1].toLowerCase()}`}>
        <ErrorNote error={series.error} />
        {!series.data ? (
          !series.error && <Skeleton rows={4} label="Loading the usage" />
        ) : (
          <OutcomeChart usage={series.data} what={category[1]} category={category[0]} />
        )}
      </Section>
      <Section title="By category">
        <ErrorNote error={table.error} />
        {!table.data ? !table.error && <Skeleton rows={4} label="Loading the totals" /> : <OutcomeTable usage={table.data} />}
      </Section>
    </>
  );
}

function OutcomeChart(props: { usage: Usage; what: string; category: string }) {
  const intervals = props.usage.intervals ?? [];
  const seriesOf = (outcome: string) => props.usage.groups.find((group) => group.by.outcome === outcome)?.series?.['sum(quantity)'] ?? [];
  const stacked = OUTCOMES.map(({ outcome }) => seriesOf(outcome));
  const totals = OUTCOMES.map(({ outcome }) => props.usage.groups.find((group) => group.by.outcome === outcome)?.totals['sum(quantity)'] ?? 0);
  const peak = Math.max(1, ...intervals.map((_, index) => stacked.reduce((sum, points) => sum + (points[index] ?? 0), 0)));
  const slot = WIDTH / Math.max(1, intervals.length);
  const every = Math.max(1, Math.ceil(intervals.length / 8));
  const summary = OUTCOMES.map(({ label }, index) => `${label}: ${quantity(props.category, totals[index])}`).join(', ');
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT + 20}`} role="img" aria-label={`${props.what} by outcome. ${summary}.`}>
        <line x1="0" x2={WIDTH} y1={8} y2={8} class="grid" />
        <line x1="0" x2={WIDTH} y1={HEIGHT} y2={HEIGHT} class="axis" />
        {intervals.map((time, index) => {
          let top = HEIGHT;
          return (
            <g key={time}>
              {OUTCOMES.map(({ class: kind }, which) => {
                const count = stacked[which][index] ?? 0;
                const height = (count / peak) * (HEIGHT - 8);
                top -= height;
                return count ? <rect key={kind} class={kind} x={index * slot + 1} y={top} width={Math.max(1, slot - 2)} height={height} /> : null;
              })}
              {index % every === 0 && (
                <text x={index * slot + 1} y={HEIGHT + 15} class="tick">
                  {new Date(time).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit' })}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption class="legend">
        {OUTCOMES.map(({ label, class: kind }, index) => (
          <span key={kind}>
            <span class={`swatch ${kind}`} aria-hidden="true" /> {label} <strong>{quantity(props.category, totals[index])}</strong>
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

function OutcomeTable(props: { usage: Usage }) {
  const total = (category: string, outcome: string) =>
    props.usage.groups.find((group) => group.by.category === category && group.by.outcome === outcome)?.totals['sum(quantity)'] ?? 0;
  const labels = new Map(CATEGORIES);
  const seen = [...new Set(props.usage.groups.map((group) => group.by.category ?? ''))].sort().map((category) => [category, labels.get(category) ?? category]);
  if (seen.length === 0) return <p class="empty">Nothing was received in this period.</p>;
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">Category</th>
          {OUTCOMES.map(({ outcome, label }) => (
            <th key={outcome} scope="col">
              {label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {seen.map(([category, label]) => (
          <tr key={category}>
            <th scope="row">{label}</th>
            {OUTCOMES.map(({ outcome }) => (
              <td key={outcome}>{quantity(category, total(category, outcome))}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
