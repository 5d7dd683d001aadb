import { useState } from 'preact/hooks';
import { api, enc } from '../api';
import { ErrorNote, formatDate, Section, Skeleton, useLoad, useTitle } from '../components';

interface Release {
  version: string;
  shortVersion: string;
  dateCreated: string;
  dateReleased: string | null;
  newGroups: number;
  lastEvent: string | null;
  deployCount: number;
  lastDeploy: { environment: string; dateFinished: string } | null;
  projects: Array<{ slug: string; name: string; hasHealthData: boolean; healthData?: HealthData }>;
}

/** Sentry's release health of one project (`health=1`): rates in percent, null without sessions. */
interface HealthData {
  crashFreeSessions: number | null;
  crashFreeUsers: number | null;
  totalSessions: number;
  totalUsers: number;
  sessionsCrashed: number;
}

/**
 * A release's crash-free rates over its projects: sessions exactly (1 - crashed / total); users
 * weighted by each project's users (a user of two projects counts in each).
 */
function releaseHealth(release: Release): { sessions: number | null; users: number | null } {
  const health = release.projects.flatMap((p) => (p.healthData && p.healthData.totalSessions > 0 ? [p.healthData] : []));
  const total = health.reduce((sum, h) => sum + h.totalSessions, 0);
  const users = health.reduce((sum, h) => sum + h.totalUsers, 0);
  const crashedUsers = health.reduce((sum, h) => sum + (h.crashFreeUsers === null ? 0 : ((100 - h.crashFreeUsers) / 100) * h.totalUsers), 0);
  return {
    sessions: total > 0 ? 100 - (health.reduce((sum, h) => sum + h.sessionsCrashed, 0) / total) * 100 : null,
    users: users > 0 ? 100 - (crashedUsers / users) * 100 : null,
  };
}

const percent = (value: number | null): string => (value === null ? '—' : `${Math.floor(value * 10) / 10}%`);

/** An organization's releases, newest first, as sentry-cli and the events created them. */
export function ReleasesPage(props: { params: Record<string, string> }) {
  const { org } = props.params;
  useTitle('Releases');
  const [query, setQuery] = useState('');
  const releases = useLoad(
    () =>
      api<Release[]>('GET', `/api/0/organizations/${enc(org)}/releases/?per_page=100&health=1${query ? `&query=${encodeURIComponent(query)}` : ''}`).then(
        ({ body }) => body,
      ),
    [org, query],
  );
  const withHealth = releases.data?.some((release) => release.projects.some((p) => p.hasHealthData)) ?? false;
  return (
    <>
      <h1>Releases</h1>
      <div class="toolbar">
        <label for="release-query">Version</label>
        <input
          id="release-query"
          type="search"
          value={query}
          placeholder="Search versions"
          onChange={(event) => setQuery((event.currentTarget as HTMLInputElement).value)}
        />
      </div>
      <Section title="Releases">
        <ErrorNote error={releases.error} />
        {releases.loading && !releases.data ? (
          <Skeleton rows={4} />
        ) : releases.data?.length ? (
          <table>
            <thead>
              <tr>
                <th scope="col">Version</th>
                <th scope="col">Projects</th>
                <th scope="col">Created</th>
                <th scope="col">Finalized</th>
                <th scope="col" class="number">
                  New issues
                </th>
                <th scope="col">Last event</th>
                <th scope="col">Last deploy</th>
                {withHealth && (
                  <>
                    <th scope="col" class="number">
                      Crash-free sessions
                    </th>
                    <th scope="col" class="number">
                      Crash-free users
                    </th>
                  </>
                )}
              </tr>
            </thead>
            <tbody>
              {releases.data.map((release) => (
                <tr key={release.version}>
                  <td>
                    <span title={release.version}>{release.shortVersion}</span>
                  </td>
                  <td>{release.projects.map((p) => p.slug).join(', ')}</td>
                  <td>{formatDate(release.dateCreated)}</td>
                  <td>{formatDate(release.dateReleased)}</td>
                  <td class="number">{release.newGroups}</td>
                  <td>{formatDate(release.lastEvent)}</td>
                  <td>{release.lastDeploy ? `${release.lastDeploy.environment}, ${formatDate(release.lastDeploy.dateFinished)}` : '—'}</td>
                  {withHealth && <HealthCells health={releaseHealth(release)} />}
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p class="muted">No releases yet. Create one with sentry-cli, or send an event that names its release.</p>
        )}
      </Section>
    </>
  );
}

function HealthCells(props: { health: { sessions: number | null; users: number | null } }) {
  return (
    <>
      <td class="number">{percent(props.health.sessions)}</td>
      <td class="number">{percent(props.health.users)}</td>
    </>
  );
}
