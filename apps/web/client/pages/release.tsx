import type { ComponentChildren } from 'preact';
import { api, enc, list } from '../api';
import { ErrorNote, formatDate, Section, Skeleton, useLoad, useTitle } from '../components';
import { formatBytes } from '../format-bytes';
import { Link, navigate, useSearch } from '../router';
import { shortCount, timeAgo } from './issues/format';
import { quoteValue } from './issues/search';
import type { Issue } from './issues/types';
import { type HealthData, percent, releaseHealth } from './releases';
import './releases.css';

interface ReleaseDetail {
  version: string;
  shortVersion: string;
  ref: string | null;
  url: string | null;
  dateCreated: string;
  dateReleased: string | null;
  firstEvent: string | null;
  lastEvent: string | null;
  newGroups: number;
  commitCount: number;
  deployCount: number;
  projects: Array<{ id: number; slug: string; name: string; newGroups: number; hasHealthData: boolean; healthData?: HealthData & { sessionsErrored: number } }>;
}

interface Commit {
  id: string;
  message: string | null;
  dateCreated: string | null;
  repository: { name: string } | null;
  author: { name: string | null; email: string } | null;
}

interface Deploy {
  id: string;
  environment: string;
  name: string | null;
  url: string | null;
  dateStarted: string | null;
  dateFinished: string | null;
}

interface ReleaseFile {
  id: string;
  name: string;
  dist: string | null;
  headers: Record<string, string>;
  size: number;
}

/** An artifact bundle uploaded for the release (Sentry's project artifact bundles). */
interface ArtifactBundle {
  bundleId: string;
  dist: string | null;
  fileCount: number;
  size: number;
  date: string;
}

/** The projects whose bundles the page asks for: one request each. */
const MAX_BUNDLE_PROJECTS = 10;

/** What each list of the page shows at most; a fuller one says so and where to find the rest. */
const PER_PAGE = 100;
const ISSUES_PER_PAGE = 25;

/** Sentry's release page: the release's issues, commits, deploys, files and health, for one project or all (`?project=`). */
export function ReleasePage(props: { params: Record<string, string> }) {
  const { org, version } = props.params;
  useTitle(`Release ${version}`);
  const search = new URLSearchParams(useSearch());
  const project = search.get('project');
  const base = `/api/0/organizations/${enc(org)}/releases/${enc(version)}/`;
  const release = useLoad(() => api<ReleaseDetail>('GET', `${base}?health=1`).then(({ body }) => body), [org, version]);
  const setProject = (value: string) => navigate(`${location.pathname}${value ? `?project=${enc(value)}` : ''}`, { replace: true });

  const projects = release.data?.projects.filter((p) => !project || String(p.id) === project) ?? [];
  const health = releaseHealth({ projects });
  const sessions = projects.reduce((sum, p) => sum + (p.healthData?.totalSessions ?? 0), 0);
  return (
    <>
      <p class="muted small">
        <Link href={`/organizations/${enc(org)}/releases/${project ? `?project=${enc(project)}` : ''}`}>Releases</Link> ›
      </p>
      <h1 class="release-version" title={version}>
        {release.data?.shortVersion ?? version}
      </h1>
      <ErrorNote error={release.error} />
      {release.data && (
        <>
          <dl class="details release-facts">
            <dt>Version</dt>
            <dd>
              <code>{release.data.version}</code>
            </dd>
            <dt>Created</dt>
            <dd>{formatDate(release.data.dateCreated)}</dd>
            <dt>Finalized</dt>
            <dd>{formatDate(release.data.dateReleased)}</dd>
            <dt>Events</dt>
            <dd>{release.data.firstEvent ? `${formatDate(release.data.firstEvent)} to ${formatDate(release.data.lastEvent)}` : 'None yet'}</dd>
            {release.data.ref && (
              <>
                <dt>Ref</dt>
                <dd>
                  <code>{release.data.ref}</code>
                </dd>
              </>
            )}
            {release.data.url && (
              <>
                <dt>URL</dt>
                <dd class="release-url">{/^https?:\/\//.test(release.data.url) ? <a href={release.data.url}>{release.data.url}</a> : release.data.url}</dd>
              </>
            )}
          </dl>
          <div class="stream-filters">
            <div class="stream-filter">
              <label for="release-page-project">Project</label>
              <select id="release-page-project" value={project ?? ''} onChange={(event) => setProject((event.currentTarget as HTMLSelectElement).value)}>
                <option value="">All projects</option>
                {release.data.projects.map((p) => (
                  <option key={p.id} value={String(p.id)}>
                    {p.slug}
                  </option>
                ))}
              </select>
            </div>
          </div>
          {sessions > 0 && (
            <Section title="Health">
              <dl class="release-health">
                <Stat label="Crash-free sessions" value={percent(health.sessions)} />
                <Stat label="Crash-free users" value={percent(health.users)} />
                <Stat label="Sessions" value={sessions.toLocaleString('en-US')} />
                <Stat label="Crashed sessions" value={projects.reduce((sum, p) => sum + (p.healthData?.sessionsCrashed ?? 0), 0).toLocaleString('en-US')} />
                <Stat label="Errored sessions" value={projects.reduce((sum, p) => sum + (p.healthData?.sessionsErrored ?? 0), 0).toLocaleString('en-US')} />
                <Stat label="Users" value={projects.reduce((sum, p) => sum + (p.healthData?.totalUsers ?? 0), 0).toLocaleString('en-US')} />
              </dl>
              <p class="muted small">Over the last 14 days, from the sessions the SDKs sent for this release.</p>
            </Section>
          )}
        </>
      )}
      {release.loading && !release.data && <Skeleton rows={3} />}
      {release.data && <ReleaseLists org={org} version={version} project={project} projects={projects.map((p) => p.slug)} />}
    </>
  );
}

/** The release's lists, asked for once the release is known to exist. */
function ReleaseLists(props: { org: string; version: string; project: string | null; projects: string[] }) {
  const { org, version, project } = props;
  const base = `/api/0/organizations/${enc(org)}/releases/${enc(version)}/`;
  const commits = useLoad(() => list<Commit>(`${base}commits/?per_page=${PER_PAGE}`), [org, version]);
  const deploys = useLoad(() => list<Deploy>(`${base}deploys/?per_page=${PER_PAGE}`), [org, version]);
  const files = useLoad(() => list<ReleaseFile>(`${base}files/?per_page=${PER_PAGE}`), [org, version]);
  return (
    <>
      <ReleaseIssues
        org={org}
        project={project}
        title="New issues"
        query={`firstRelease:${quoteValue(version)}`}
        empty="No issue was first seen in this release."
      />
      <ReleaseIssues
        org={org}
        project={project}
        title="Regressed issues"
        query={`is:regressed release:${quoteValue(version)}`}
        empty="No regressed issue has events in this release."
      />
      <Section title="Commits">
        <Listing loaded={commits} empty="No commits. sentry-cli releases set-commits sends them.">
          {(items: Commit[]) => (
            <table>
              <thead>
                <tr>
                  <th scope="col">Commit</th>
                  <th scope="col">Message</th>
                  <th scope="col">Author</th>
                  <th scope="col">Repository</th>
                  <th scope="col">Date</th>
                </tr>
              </thead>
              <tbody>
                {items.map((commit) => (
                  <tr key={commit.id}>
                    <td>
                      <code title={commit.id}>{commit.id.slice(0, 12)}</code>
                    </td>
                    <td class="commit-message">{commit.message?.split('\n')[0] ?? '—'}</td>
                    <td>{commit.author ? (commit.author.name ?? commit.author.email) : '—'}</td>
                    <td>{commit.repository?.name ?? '—'}</td>
                    <td>{formatDate(commit.dateCreated)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Listing>
      </Section>
      <Section title="Deploys">
        <Listing loaded={deploys} empty="No deploys. sentry-cli deploys new records one.">
          {(items: Deploy[]) => (
            <table>
              <thead>
                <tr>
                  <th scope="col">Environment</th>
                  <th scope="col">Name</th>
                  <th scope="col">Started</th>
                  <th scope="col">Finished</th>
                </tr>
              </thead>
              <tbody>
                {items.map((deploy) => (
                  <tr key={deploy.id}>
                    <td>{deploy.environment}</td>
                    <td>{deploy.url && /^https?:\/\//.test(deploy.url) ? <a href={deploy.url}>{deploy.name ?? deploy.url}</a> : (deploy.name ?? '—')}</td>
                    <td>{formatDate(deploy.dateStarted)}</td>
                    <td>{formatDate(deploy.dateFinished)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Listing>
      </Section>
      <Section title="Files">
        <Listing loaded={files} empty="No files. sentry-cli sourcemaps upload sends the bundles and source maps.">
          {(items: ReleaseFile[]) => (
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Dist</th>
                  <th scope="col">Source map</th>
                  <th scope="col" class="number">
                    Size
                  </th>
                </tr>
              </thead>
              <tbody>
                {items.map((file) => (
                  <tr key={file.id}>
                    <td class="file-name">{file.name}</td>
                    <td>{file.dist ?? '—'}</td>
                    <td class="file-name">{file.headers.Sourcemap ?? '—'}</td>
                    <td class="number">{formatBytes(file.size)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Listing>
      </Section>
      <ArtifactBundles org={org} version={version} projects={props.projects} />
    </>
  );
}

/** The source-map bundles sentry-cli uploaded for the release, per project (`…/artifact-bundles/?release=`). */
function ArtifactBundles(props: { org: string; version: string; projects: string[] }) {
  const { org, version } = props;
  const slugs = props.projects.slice(0, MAX_BUNDLE_PROJECTS);
  const bundles = useLoad(async () => {
    const pages = await Promise.all(
      slugs.map((slug) =>
        list<ArtifactBundle>(`/api/0/projects/${enc(org)}/${enc(slug)}/artifact-bundles/?release=${enc(version)}&per_page=${PER_PAGE}`).then((page) => ({
          items: page.items.map((bundle) => ({ ...bundle, project: slug })),
          more: page.nextCursor !== undefined,
        })),
      ),
    );
    const more = pages.some((page) => page.more) || props.projects.length > slugs.length;
    return { items: pages.flatMap((page) => page.items), nextCursor: more ? 'more' : undefined };
  }, [org, version, slugs.join()]);
  return (
    <Section title="Artifact bundles">
      <Listing loaded={bundles} empty="No artifact bundles. sentry-cli sourcemaps upload --release sends them.">
        {(items: Array<ArtifactBundle & { project: string }>) => (
          <table>
            <thead>
              <tr>
                <th scope="col">Bundle ID</th>
                {slugs.length > 1 && <th scope="col">Project</th>}
                <th scope="col">Dist</th>
                <th scope="col" class="number">
                  Files
                </th>
                <th scope="col" class="number">
                  Size
                </th>
                <th scope="col">Uploaded</th>
              </tr>
            </thead>
            <tbody>
              {items.map((bundle) => (
                <tr key={`${bundle.project}:${bundle.bundleId}:${bundle.dist ?? ''}`}>
                  <td class="file-name">
                    <code>{bundle.bundleId}</code>
                  </td>
                  {slugs.length > 1 && <td>{bundle.project}</td>}
                  <td>{bundle.dist ?? '—'}</td>
                  <td class="number">{bundle.fileCount}</td>
                  <td class="number">{formatBytes(bundle.size)}</td>
                  <td>{formatDate(bundle.date)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Listing>
    </Section>
  );
}

function Stat(props: { label: string; value: string }) {
  return (
    <div class="release-stat">
      <dt>{props.label}</dt>
      <dd>{props.value}</dd>
    </div>
  );
}

/** A list of the page: its rows, a note when there are more than it shows, or what being empty means. */
function Listing<T>(props: {
  loaded: { data?: { items: T[]; nextCursor?: string }; error?: unknown; loading: boolean };
  empty: string;
  children: (items: T[]) => ComponentChildren;
}) {
  const { data, error, loading } = props.loaded;
  if (error) return <ErrorNote error={error} />;
  if (loading && !data) return <Skeleton rows={2} />;
  if (!data?.items.length) return <p class="muted">{props.empty}</p>;
  return (
    <>
      {props.children(data.items)}
      {data.nextCursor && <p class="muted small">The first {data.items.length} are shown.</p>}
    </>
  );
}

/** Issues of the release a search finds, each a link to its issue, and the search in the issue stream. */
function ReleaseIssues(props: { org: string; project: string | null; title: string; query: string; empty: string }) {
  const params = new URLSearchParams({ query: props.query, per_page: String(ISSUES_PER_PAGE), groupStatsPeriod: '' });
  if (props.project) params.set('project', props.project);
  const issues = useLoad(() => list<Issue>(`/api/0/organizations/${enc(props.org)}/issues/?${params.toString()}`), [props.org, props.project, props.query]);
  const stream = new URLSearchParams({ query: props.query });
  if (props.project) stream.set('project', props.project);
  const now = Date.now();
  return (
    <Section title={props.title} actions={<Link href={`/organizations/${enc(props.org)}/issues/?${stream.toString()}`}>Open in Issues</Link>}>
      <Listing loaded={issues} empty={props.empty}>
        {(items: Issue[]) => (
          <table>
            <thead>
              <tr>
                <th scope="col">Issue</th>
                <th scope="col">Project</th>
                <th scope="col" class="number">
                  Events
                </th>
                <th scope="col" class="number">
                  Users
                </th>
                <th scope="col">Last seen</th>
              </tr>
            </thead>
            <tbody>
              {items.map((issue) => (
                <tr key={issue.id}>
                  <td class="release-issue">
                    <Link href={`/organizations/${enc(props.org)}/issues/${enc(issue.id)}/`}>
                      <strong>{issue.metadata.type ?? issue.title}</strong>
                      {issue.metadata.type && issue.metadata.value ? <span class="muted"> {issue.metadata.value}</span> : null}
                    </Link>{' '}
                    <span class="short-id muted small">{issue.shortId}</span>
                  </td>
                  <td>{issue.project.slug}</td>
                  <td class="number">{shortCount(issue.count)}</td>
                  <td class="number">{shortCount(issue.userCount)}</td>
                  <td title={formatDate(issue.lastSeen)}>{timeAgo(issue.lastSeen, now)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Listing>
    </Section>
  );
}
