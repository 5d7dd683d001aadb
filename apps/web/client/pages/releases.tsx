import { useEffect, useState } from 'preact/hooks';
import { api, enc } from '../api';
import { ErrorNote, formatDate, Section, Skeleton, useLoad, useTitle } from '../components';
import { Link, navigate, useSearch } from '../router';

interface Release {
  version: string;
  shortVersion: string;
  dateCreated: string;
  dateReleased: string | null;
  newGroups: number;
  lastEvent: string | null;
  deployCount: number;
  lastDeploy: { environment: string; dateFinished: string } | null;
  projects: Array<{ id: number; slug: string; name: string; hasHealthData: boolean; healthData?: HealthData }>;
}

/** Sentry's release health of one project (`health=1`): rates in percent, null without sessions. */
export interface HealthData {
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
export function releaseHealth(release: Pick<Release, 'projects'>): { sessions: number | null; users: number | null } {
  const health = release.projects.flatMap((p) => (p.healthData && p.healthData.totalSessions > 0 ? [p.healthData] : []));
  const total = health.reduce((sum, h) => sum + h.totalSessions, 0);
  const users = health.reduce((sum, h) => sum + h.totalUsers, 0);
  const crashedUsers = health.reduce((sum, h) => sum + (h.crashFreeUsers === null ? 0 : ((100 - h.crashFreeUsers) / 100) * h.totalUsers), 0);
  return {
    sessions: total > 0 ? 100 - (health.reduce((sum, h) => sum + h.sessionsCrashed, 0) / total) * 100 : null,
    users: users > 0 ? 100 - (crashedUsers / users) * 100 : null,
  };
}

export const percent = (value: number | null): string => (value === null ? '—' : `${Math.floor(value * 10) / 10}%`);

/** The organization's projects, for the project filters. */
export function useProjects(org: string) {
  return useLoad(() => api<Array<{ id: string; slug: string }>>('GET', `/api/0/organizations/${enc(org)}/projects/`).then(({ body }) => body), [org]);
}

/** A release's page, with the project filter the list had (`?project=`). */
export function releaseHref(org: string, version: string, project: string | null): string {
  return `/organizations/${enc(org)}/releases/${enc(version)}/${project ? `?project=${enc(project)}` : ''}`;
}

/** An organization's releases, newest first, as sentry-cli and the events created them; `?query=` and `?project=` filter them. */
export function ReleasesPage(props: { params: Record<string, string> }) {
  const { org } = props.params;
  useTitle('Releases');
  const search = new URLSearchParams(useSearch());
  const query = search.get('query') ?? '';
  const project = search.get('project');
  const [text, setText] = useState(query);
  useEffect(() => setText(query), [query]);
  const go = (name: string, value: string) => {
    if (value) search.set(name, value);
    else search.delete(name);
    const rest = search.toString();
    navigate(`${location.pathname}${rest ? `?${rest}` : ''}`, { replace: true });
  };
  const projects = useProjects(org);
  const releases = useLoad(() => {
    const params = new URLSearchParams({ per_page: '100', health: '1' });
    if (query) params.set('query', query);
    if (project) params.set('project', project);
    return api<Release[]>('GET', `/api/0/organizations/${enc(org)}/releases/?${params.toString()}`).then(({ body }) => body);
  }, [org, query, project]);
  const withHealth = releases.data?.some((release) => release.projects.some((p) => p.hasHealthData)) ?? false;
  return (
    <>
      <h1>Releases</h1>
      <form
        class="search-box"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          go('query', text.trim());
        }}
      >
        <label for="release-query" class="visually-hidden">
          Search versions
        </label>
        <input
          id="release-query"
          type="search"
          value={text}
          placeholder="Search versions, e.g. 1.2 or shop@"
          spellcheck={false}
          autoComplete="off"
          onInput={(event) => setText((event.currentTarget as HTMLInputElement).value)}
        />
        <button type="submit" class="primary">
          Search
        </button>
      </form>
      <div class="stream-filters">
        <div class="stream-filter">
          <label for="release-project">Project</label>
          <select id="release-project" value={project ?? ''} onChange={(event) => go('project', (event.currentTarget as HTMLSelectElement).value)}>
            <option value="">All projects</option>
            {projects.data?.map((item) => (
              <option key={item.id} value={item.id}>
                {item.slug}
              </option>
            ))}
          </select>
        </div>
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
                    <Link href={releaseHref(org, release.version, project)} aria-label={`Release ${release.version}`}>
                      <span title={release.version}>{release.shortVersion}</span>
                    </Link>
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
          <p class="muted">
            {query || project ? 'No release matches.' : 'No releases yet. Create one with sentry-cli, or send an event that names its release.'}
          </p>
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
