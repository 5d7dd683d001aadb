import { api, enc } from '../api';
import { ErrorNote, formatDate, Section, Skeleton, Status, useLoad, useTitle } from '../components';
import { Link } from '../router';

interface MonitorEnvironment {
  name: string;
  status: string;
  isMuted: boolean;
  lastCheckIn: string | null;
  nextCheckIn: string | null;
  nextCheckInLatest: string | null;
}

interface Monitor {
  id: string;
  slug: string;
  name: string;
  status: string;
  isMuted: boolean;
  config: {
    schedule_type: 'crontab' | 'interval';
    schedule: string | [number, string];
    checkin_margin: number | null;
    max_runtime: number | null;
    timezone: string;
  };
  project: { slug: string } | null;
  environments: MonitorEnvironment[];
}

interface CheckIn {
  id: string;
  environment: string;
  status: string;
  duration: number | null;
  dateCreated: string;
  expectedTime: string | null;
}

/** Check-ins the list shows per monitor. */
const TIMELINE_LENGTH = 30;

function scheduleText(config: Monitor['config']): string {
  if (typeof config.schedule === 'string') return `${config.schedule} (${config.timezone})`;
  const [count, unit] = config.schedule;
  return `every ${count} ${unit}${count === 1 ? '' : 's'}`;
}

function durationText(ms: number | null): string {
  if (ms === null) return '—';
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/** The monitor's worst environment status: what the list shows first. */
function overallStatus(monitor: Monitor): string {
  if (monitor.status === 'disabled') return 'disabled';
  const statuses = monitor.environments.map((environment) => environment.status);
  return statuses.includes('error') ? 'error' : statuses.includes('ok') ? 'ok' : 'active';
}

/** The latest check-ins, oldest first, one mark each coloured by status. */
function Timeline(props: { checkIns: CheckIn[] }) {
  const marks = [...props.checkIns].reverse();
  const failed = marks.filter((checkIn) => checkIn.status !== 'ok' && checkIn.status !== 'in_progress').length;
  return (
    <ol class="checkin-timeline" aria-label={`Last ${marks.length} check-ins, ${failed} failed`}>
      {marks.map((checkIn) => (
        <li key={checkIn.id} class={`tick tick-${checkIn.status}`} title={`${checkIn.status} · ${checkIn.environment} · ${formatDate(checkIn.dateCreated)}`} />
      ))}
    </ol>
  );
}

function MonitorRow(props: { org: string; monitor: Monitor }) {
  const { org, monitor } = props;
  const checkIns = useLoad(
    () =>
      api<CheckIn[]>('GET', `/api/0/organizations/${enc(org)}/monitors/${enc(monitor.slug)}/checkins/?per_page=${TIMELINE_LENGTH}`).then(({ body }) => body),
    [org, monitor.slug],
  );
  const next =
    monitor.environments
      .map((environment) => environment.nextCheckIn)
      .filter((value): value is string => !!value)
      .sort()[0] ?? null;
  return (
    <tr>
      <th scope="row">
        <Link href={`/organizations/${org}/crons/${monitor.project?.slug ?? '-'}/${monitor.slug}/`}>{monitor.name}</Link>
        {monitor.isMuted ? <span class="muted"> (muted)</span> : null}
      </th>
      <td>
        <Status value={overallStatus(monitor)} />
      </td>
      <td>{scheduleText(monitor.config)}</td>
      <td>{monitor.project?.slug ?? '—'}</td>
      <td>{formatDate(next)}</td>
      <td>{checkIns.data ? <Timeline checkIns={checkIns.data} /> : <span class="muted">…</span>}</td>
    </tr>
  );
}

/** An organization's cron monitors (Sentry's Crons), with each one's status and latest check-ins. */
export function CronsPage(props: { params: Record<string, string> }) {
  const { org } = props.params;
  useTitle('Crons');
  const monitors = useLoad(() => api<Monitor[]>('GET', `/api/0/organizations/${enc(org)}/monitors/?per_page=100`).then(({ body }) => body), [org]);
  return (
    <>
      <h1>Crons</h1>
      <Section title="Monitors">
        <ErrorNote error={monitors.error} />
        {monitors.loading && !monitors.data ? (
          <Skeleton rows={4} />
        ) : monitors.data?.length ? (
          <table>
            <thead>
              <tr>
                <th scope="col">Monitor</th>
                <th scope="col">Status</th>
                <th scope="col">Schedule</th>
                <th scope="col">Project</th>
                <th scope="col">Next check-in</th>
                <th scope="col">Latest check-ins</th>
              </tr>
            </thead>
            <tbody>
              {monitors.data.map((monitor) => (
                <MonitorRow key={monitor.id} org={org} monitor={monitor} />
              ))}
            </tbody>
          </table>
        ) : (
          <p class="muted">
            No monitors yet. Wrap a job in <code>Sentry.withMonitor</code>, run it with <code>sentry-cli monitors run</code>, or send check-ins over HTTP.
          </p>
        )}
      </Section>
    </>
  );
}

/** One monitor: its schedule, each environment's status, and its check-ins. */
export function CronMonitorPage(props: { params: Record<string, string> }) {
  const { org, monitor: slug } = props.params;
  useTitle(slug);
  const monitor = useLoad(() => api<Monitor>('GET', `/api/0/organizations/${enc(org)}/monitors/${enc(slug)}/`).then(({ body }) => body), [org, slug]);
  const checkIns = useLoad(
    () => api<CheckIn[]>('GET', `/api/0/organizations/${enc(org)}/monitors/${enc(slug)}/checkins/?per_page=100`).then(({ body }) => body),
    [org, slug],
  );
  return (
    <>
      <p>
        <Link href={`/organizations/${org}/crons/`}>Crons</Link>
      </p>
      <h1>{monitor.data?.name ?? slug}</h1>
      <ErrorNote error={monitor.error} />
      {monitor.data ? (
        <dl class="details">
          <dt>Status</dt>
          <dd>
            <Status value={overallStatus(monitor.data)} />
          </dd>
          <dt>Schedule</dt>
          <dd>{scheduleText(monitor.data.config)}</dd>
          <dt>Check-in margin</dt>
          <dd>{monitor.data.config.checkin_margin || 1} min</dd>
          <dt>Max runtime</dt>
          <dd>{monitor.data.config.max_runtime ?? 30} min</dd>
        </dl>
      ) : (
        <Skeleton rows={3} />
      )}
      <Section title="Environments">
        {monitor.data?.environments.length ? (
          <table>
            <thead>
              <tr>
                <th scope="col">Environment</th>
                <th scope="col">Status</th>
                <th scope="col">Last check-in</th>
                <th scope="col">Next check-in</th>
              </tr>
            </thead>
            <tbody>
              {monitor.data.environments.map((environment) => (
                <tr key={environment.name}>
                  <th scope="row">{environment.name}</th>
                  <td>
                    <Status value={environment.status} />
                  </td>
                  <td>{formatDate(environment.lastCheckIn)}</td>
                  <td>{formatDate(environment.nextCheckIn)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p class="muted">No check-ins yet.</p>
        )}
      </Section>
      <Section title="Check-ins">
        <ErrorNote error={checkIns.error} />
        {checkIns.data?.length ? (
          <table>
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">Environment</th>
                <th scope="col">Started</th>
                <th scope="col">Expected</th>
                <th scope="col" class="number">
                  Duration
                </th>
              </tr>
            </thead>
            <tbody>
              {checkIns.data.map((checkIn) => (
                <tr key={checkIn.id}>
                  <td>
                    <Status value={checkIn.status} />
                  </td>
                  <td>{checkIn.environment}</td>
                  <td>{formatDate(checkIn.dateCreated)}</td>
                  <td>{formatDate(checkIn.expectedTime)}</td>
                  <td class="number">{durationText(checkIn.duration)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : checkIns.loading ? (
          <Skeleton rows={3} />
        ) : (
          <p class="muted">No check-ins yet.</p>
        )}
      </Section>
    </>
  );
}
