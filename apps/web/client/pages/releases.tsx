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
  projects: Array<{ slug: string; name: string }>;
}

/** An organization's releases, newest first, as sentry-cli and the events created them. */
export function ReleasesPage(props: { params: Record<string, string> }) {
  const { org } = props.params;
  useTitle('Releases');
  const [query, setQuery] = useState('');
  const releases = useLoad(
    () =>
      api<Release[]>('GET', `/api/0/organizations/${enc(org)}/releases/?per_page=100${query ? `&query=${encodeURIComponent(query)}` : ''}`).then(
        ({ body }) => body,
      ),
    [org, query],
  );
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
