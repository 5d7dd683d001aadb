import { api, enc } from '../api';
import { Section, Skeleton, useLoad } from '../components';

type Series = Array<[number, number]>;

/** Sentry's stats names (`received` counts all three, so the stored events are `generated`), in stacking order. */
const STATS = [
  { stat: 'generated', label: 'Accepted', class: 'bar-received' },
  { stat: 'blacklisted', label: 'Filtered', class: 'bar-filtered' },
  { stat: 'rejected', label: 'Rejected (rate limits, disabled keys)', class: 'bar-rejected' },
] as const;

const HOURS = 24;
const WIDTH = 720;
const HEIGHT = 130;

/** Events per hour over the last day, stacked by outcome (project stats endpoint), as inline SVG. */
export function EventsChart(props: { org: string; project: string }) {
  const series = useLoad(async () => {
    const until = Math.floor(Date.now() / 3_600_000) * 3600;
    const since = until - (HOURS - 1) * 3600;
    const base = `/api/0/projects/${enc(props.org)}/${enc(props.project)}/stats/?resolution=1h&since=${since}&until=${until}`;
    return Promise.all(STATS.map(({ stat }) => api<Series>('GET', `${base}&stat=${stat}`).then(({ body }) => body)));
  }, [props.org, props.project]);
  const data = series.data;
  const buckets = data?.[0] ?? [];
  const totals = data?.map((points) => points.reduce((sum, [, count]) => sum + count, 0)) ?? [];
  const peak = Math.max(1, ...buckets.map((_, index) => (data ?? []).reduce((sum, points) => sum + (points[index]?.[1] ?? 0), 0)));
  const slot = WIDTH / Math.max(1, buckets.length);
  const summary = STATS.map(({ label }, index) => `${label}: ${totals[index] ?? 0}`).join(', ');
  return (
    <Section title="Events, last 24 hours">
      {series.error ? (
        <p class="empty">The event counts could not be loaded.</p>
      ) : !data ? (
        <Skeleton rows={4} label="Loading the event counts" />
      ) : (
        <figure class="chart">
          <svg viewBox={`0 0 ${WIDTH} ${HEIGHT + 20}`} role="img" aria-label={`Events per hour over the last 24 hours. ${summary}.`}>
            <line x1="0" x2={WIDTH} y1={8} y2={8} class="grid" />
            <line x1="0" x2={WIDTH} y1={(HEIGHT + 8) / 2} y2={(HEIGHT + 8) / 2} class="grid" />
            <line x1="0" x2={WIDTH} y1={HEIGHT} y2={HEIGHT} class="axis" />
            {buckets.map(([time], index) => {
              let top = HEIGHT;
              return (
                <g key={time}>
                  {STATS.map(({ class: kind }, which) => {
                    const count = data[which][index]?.[1] ?? 0;
                    const height = (count / peak) * (HEIGHT - 8);
                    top -= height;
                    return count ? <rect key={kind} class={kind} x={index * slot + 2} y={top} width={Math.max(1, slot - 4)} height={height} /> : null;
                  })}
                  {index % 6 === 0 && (
                    <text x={index * slot + 2} y={HEIGHT + 15} class="tick">
                      {new Date(time * 1000).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })}
                    </text>
                  )}
                </g>
              );
            })}
          </svg>
          <figcaption class="legend">
            {STATS.map(({ label, class: kind }, index) => (
              <span key={kind}>
                <span class={`swatch ${kind}`} aria-hidden="true" /> {label} <strong>{totals[index]}</strong>
              </span>
            ))}
            <span class="muted">Peak {peak === 1 && !totals.some(Boolean) ? 0 : peak} an hour</span>
          </figcaption>
        </figure>
      )}
    </Section>
  );
}
