import { useMemo, useState } from 'preact/hooks';
import { api, enc, list } from '../../api';
import { ErrorNote, formatDate, Skeleton, useLoad, useTitle } from '../../components';
import { Link, navigate, useSearch } from '../../router';
import { shortCount, timeAgo } from './format';
import { SearchBox, type SuggestionSource } from './search-box';
import { issuesRequest, pageRange, readStreamState, setTerm, SORTS, streamSearch, termValue, type StreamState } from './search';
import { SavedSearches } from './saved-searches';
import { TimeRangeFilter } from './time-range';
import { ignoreGroups } from './status-actions';
import type { Issue, Member, Team } from './types';
import { LevelMark, Menu, Sparkline } from './widgets';

interface Project {
  id: string;
  slug: string;
  name: string;
}

const STATUS_TABS: Array<[string, string]> = [
  ['is:unresolved', 'Unresolved'],
  ['is:resolved', 'Resolved'],
  ['is:ignored', 'Ignored'],
  ['', 'All'],
];

const BUILT_IN_KEYS: Array<{ key: string; description: string; values?: string[] }> = [
  {
    key: 'is',
    description: 'status or assignment',
    values: ['unresolved', 'resolved', 'ignored', 'new', 'ongoing', 'regressed', 'escalating', 'assigned', 'unassigned'],
  },
  { key: 'assigned', description: 'assignee: me, none, #team, e-mail' },
  { key: 'bookmarks', description: 'bookmarked by: me, an e-mail', values: ['me'] },
  { key: 'level', description: 'fatal, error, warning, info, debug', values: ['fatal', 'error', 'warning', 'info', 'debug'] },
  { key: 'environment', description: 'an event was in it' },
  { key: 'release', description: 'an event was in it; latest' },
  { key: 'firstRelease', description: 'release of the first event' },
  { key: 'has', description: 'the tag is set' },
  { key: 'firstSeen', description: '-24h, +7d, >2026-01-31' },
  { key: 'lastSeen', description: '-1h, -7d' },
  { key: 'timesSeen', description: '>100' },
  { key: 'userCount', description: '>10' },
  { key: 'user.email', description: "an affected user's e-mail" },
  { key: 'message', description: 'text in the title or culprit' },
  { key: 'issue', description: 'a short id, WEB-12' },
];

/** The tag keys each project has seen, for the box's suggestions and the filters' choices. */
async function loadTagKeys(org: string, projects: Project[]): Promise<Map<string, Set<string>>> {
  const entries = await Promise.all(
    projects.slice(0, 20).map(async (project) => {
      const { body } = await api<Array<{ key: string }>>('GET', `/api/0/projects/${enc(org)}/${enc(project.slug)}/tags/`);
      return [project.id, new Set(body.map((tag) => tag.key))] as const;
    }),
  );
  return new Map(entries);
}

/** A tag's values across the chosen projects (or all), asked only of projects that have the key. */
async function tagValues(org: string, projects: Project[], keys: Map<string, Set<string>>, key: string, partial = ''): Promise<string[]> {
  const having = projects.filter((project) => keys.get(project.id)?.has(key));
  const pages = await Promise.all(
    having
      .slice(0, 10)
      .map((project) =>
        api<Array<{ value: string }>>(
          'GET',
          `/api/0/projects/${enc(org)}/${enc(project.slug)}/tags/${enc(key)}/values/?per_page=20${partial ? `&query=${enc(partial)}` : ''}`,
        ).then(({ body }) => body.map((item) => item.value)),
      ),
  );
  return [...new Set(pages.flat())];
}

export function IssuesPage(props: { params: Record<string, string> }) {
  const { org } = props.params;
  useTitle('Issues');
  const search = useSearch();
  const state = readStreamState(search);
  const go = (change: Partial<StreamState>) => navigate(`${location.pathname}${streamSearch({ ...state, cursor: undefined, ...change })}`);

  const projects = useLoad(() => api<Project[]>('GET', `/api/0/organizations/${enc(org)}/projects/`).then(({ body }) => body), [org]);
  const tagKeys = useLoad(() => (projects.data ? loadTagKeys(org, projects.data) : Promise.resolve(new Map<string, Set<string>>())), [org, projects.data]);
  const people = useLoad(
    () =>
      Promise.all([
        api<Member[]>('GET', `/api/0/organizations/${enc(org)}/members/`).then(({ body }) => body),
        api<Team[]>('GET', `/api/0/organizations/${enc(org)}/teams/`).then(({ body }) => body),
      ]),
    [org],
  );
  const chosen = state.projects.join(',');
  const scope = useMemo(
    () => (projects.data ?? []).filter((project) => !state.projects.length || state.projects.includes(project.id)),
    [projects.data, chosen],
  );
  const filterValues = useLoad(
    async () =>
      tagKeys.data
        ? { environments: await tagValues(org, scope, tagKeys.data, 'environment'), releases: await tagValues(org, scope, tagKeys.data, 'release') }
        : { environments: [], releases: [] },
    [tagKeys.data, scope],
  );
  const issues = useLoad(() => list<Issue>(issuesRequest(org, state)), [org, search]);

  const source: SuggestionSource = {
    keys: [
      ...BUILT_IN_KEYS,
      ...[...new Set([...(tagKeys.data?.values() ?? [])].flatMap((keys) => [...keys]))]
        .filter((key) => !BUILT_IN_KEYS.some((item) => item.key === key))
        .sort()
        .map((key) => ({ key, description: 'tag' })),
    ],
    values: async (key, partial) => {
      const builtIn = BUILT_IN_KEYS.find((item) => item.key === key)?.values;
      if (builtIn) return builtIn;
      if (key === 'has') return source.keys.filter((item) => !['is', 'has', 'message', 'issue'].includes(item.key)).map((item) => item.key);
      if (key === 'assigned' || key === 'assigned_to') {
        const [members, teams] = people.data ?? [[], []];
        return ['me', 'none', 'my_teams', ...teams.map((team) => `#${team.slug}`), ...members.map((member) => member.email)];
      }
      if (!tagKeys.data) return [];
      return tagValues(org, scope, tagKeys.data, key, partial);
    },
  };

  const [selected, setSelected] = useState<string[]>([]);
  const [bulkError, setBulkError] = useState<unknown>();
  const [bulkPending, setBulkPending] = useState(false);
  const items = issues.data?.items ?? [];
  const visibleSelected = selected.filter((id) => items.some((issue) => issue.id === id));
  const [merged, setMerged] = useState<string | undefined>();
  const selectedPath = () => `/api/0/organizations/${enc(org)}/issues/?${visibleSelected.map((id) => `id=${enc(id)}`).join('&')}`;
  const run = async (request: () => Promise<unknown>) => {
    setBulkError(undefined);
    setMerged(undefined);
    setBulkPending(true);
    try {
      await request();
      setSelected([]);
      issues.reload();
    } catch (failure) {
      setBulkError(failure);
    } finally {
      setBulkPending(false);
    }
  };
  const bulk = (change: Record<string, unknown>) => run(() => api('PUT', selectedPath(), change));
  const merge = () => {
    if (!confirm(`Merge ${visibleSelected.length} issues? Their events go to the issue with the most events, and the others become part of it.`)) return;
    return run(async () => {
      const { body } = await api<{ merge?: { parent: string; children: string[] } }>('PUT', selectedPath(), { merge: 1 });
      const parent = items.find((issue) => issue.id === body.merge?.parent);
      if (body.merge) setMerged(`Merged ${body.merge.children.length + 1} issues into ${parent?.shortId ?? body.merge.parent}.`);
    });
  };
  const remove = () => {
    const count = visibleSelected.length;
    if (!confirm(`Delete ${count} issue${count === 1 ? '' : 's'} and all their events? This cannot be undone.`)) return;
    return run(() => api('DELETE', selectedPath()));
  };

  const statusTab = STATUS_TABS.find(([query]) => query === state.query)?.[0];
  const release = termValue(state.query, 'release');
  const now = Date.now();
  const firstProject = projects.data?.find((project) => !state.projects.length || state.projects.includes(project.id)) ?? projects.data?.[0];

  return (
    <div class="issue-stream">
      <h1>Issues</h1>
      <nav class="status-tabs" aria-label="Issue status">
        {STATUS_TABS.map(([query, label]) => (
          <Link
            key={label}
            href={`${location.pathname}${streamSearch({ ...state, query, cursor: undefined })}`}
            aria-current={statusTab === query ? 'page' : undefined}
          >
            {label}
          </Link>
        ))}
      </nav>
      <div class="stream-search">
        <SearchBox query={state.query} onSearch={(query) => go({ query })} source={source} />
        <SavedSearches org={org} query={state.query} sort={state.sort} onApply={(saved) => go({ query: saved.query, sort: saved.sort })} />
      </div>
      <div class="stream-filters">
        <div class="stream-filter">
          <label for="stream-project">Project</label>
          <select
            id="stream-project"
            value={state.projects[0] ?? ''}
            onChange={(event) => go({ projects: [(event.currentTarget as HTMLSelectElement).value].filter(Boolean) })}
          >
            <option value="">All projects</option>
            {projects.data?.map((project) => (
              <option key={project.id} value={project.id}>
                {project.slug}
              </option>
            ))}
          </select>
        </div>
        <div class="stream-filter">
          <label for="stream-environment">Environment</label>
          <select
            id="stream-environment"
            value={state.environments[0] ?? ''}
            onChange={(event) => go({ environments: [(event.currentTarget as HTMLSelectElement).value].filter(Boolean) })}
          >
            <option value="">All environments</option>
            {[...new Set([...(filterValues.data?.environments ?? []), ...state.environments])].map((environment) => (
              <option key={environment} value={environment}>
                {environment}
              </option>
            ))}
          </select>
        </div>
        <div class="stream-filter">
          <label for="stream-release">Release</label>
          <select
            id="stream-release"
            value={release}
            onChange={(event) => go({ query: setTerm(state.query, 'release', (event.currentTarget as HTMLSelectElement).value) })}
          >
            <option value="">All releases</option>
            <option value="latest">Latest release</option>
            {[...new Set([...(filterValues.data?.releases ?? []), ...(release && release !== 'latest' ? [release] : [])])].map((version) => (
              <option key={version} value={version}>
                {version}
              </option>
            ))}
          </select>
        </div>
        <TimeRangeFilter
          statsPeriod={state.statsPeriod}
          start={state.start}
          end={state.end}
          onChange={(range) => go({ statsPeriod: undefined, start: undefined, end: undefined, ...range })}
        />
        <div class="stream-filter">
          <label for="stream-sort">Sort by</label>
          <select id="stream-sort" value={state.sort} onChange={(event) => go({ sort: (event.currentTarget as HTMLSelectElement).value })}>
            {SORTS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
      </div>

      <section class="panel stream" aria-label="Issues">
        <div class="stream-toolbar" role="toolbar" aria-label="Bulk actions">
          <input
            type="checkbox"
            aria-label="Select all issues on this page"
            checked={items.length > 0 && visibleSelected.length === items.length}
            indeterminate={visibleSelected.length > 0 && visibleSelected.length < items.length}
            disabled={!items.length}
            onChange={(event) => setSelected((event.currentTarget as HTMLInputElement).checked ? items.map((issue) => issue.id) : [])}
          />
          <button type="button" disabled={!visibleSelected.length || bulkPending} onClick={() => bulk({ status: 'resolved', statusDetails: {} })}>
            Resolve
          </button>
          <Menu label="Ignore selected issues" disabled={!visibleSelected.length || bulkPending} groups={ignoreGroups(bulk)}>
            Ignore ▾
          </Menu>
          <Menu
            label="Assign selected issues"
            disabled={!visibleSelected.length || bulkPending || !people.data}
            groups={[
              { items: [{ label: 'Unassigned', onSelect: () => bulk({ assignedTo: null }) }] },
              {
                label: 'Teams',
                items: (people.data?.[1] ?? []).map((team) => ({ label: `#${team.slug}`, onSelect: () => bulk({ assignedTo: `team:${team.id}` }) })),
              },
              {
                label: 'Members',
                items: (people.data?.[0] ?? [])
                  .filter((member) => member.user)
                  .map((member) => ({ label: member.user!.name || member.email, onSelect: () => bulk({ assignedTo: `user:${member.user!.id}` }) })),
              },
            ]}
          >
            Assign ▾
          </Menu>
          <button type="button" disabled={!visibleSelected.length || bulkPending} onClick={() => bulk({ isBookmarked: true })}>
            ☆ Bookmark
          </button>
          <button type="button" disabled={!visibleSelected.length || bulkPending} onClick={() => bulk({ isBookmarked: false })}>
            Remove bookmark
          </button>
          <button type="button" disabled={visibleSelected.length < 2 || bulkPending} onClick={merge} title="Merge the selected issues into one">
            Merge
          </button>
          <button type="button" class="danger" disabled={!visibleSelected.length || bulkPending} onClick={remove}>
            Delete
          </button>
          <span class="muted small" aria-live="polite">
            {visibleSelected.length ? `${visibleSelected.length} selected` : (merged ?? '')}
          </span>
        </div>
        <div class="issue-row stream-columns muted small" aria-hidden="true">
          <span />
          <span>Issue</span>
          <span>Last 24 hours</span>
          <span class="number">Events</span>
          <span class="number">Users</span>
          <span>Last seen</span>
          <span>First seen</span>
          <span>Assignee</span>
        </div>
        <ErrorNote error={bulkError} />
        <ErrorNote error={issues.error} />
        {issues.loading && !issues.data ? (
          <Skeleton rows={8} label="Loading issues" />
        ) : items.length ? (
          <ul class="issue-rows" aria-busy={issues.loading}>
            {items.map((issue) => (
              <li key={issue.id} class={`issue-row level-${issue.level}`}>
                <input
                  type="checkbox"
                  aria-label={`Select ${issue.shortId}`}
                  checked={selected.includes(issue.id)}
                  onChange={(event) => {
                    const checked = (event.currentTarget as HTMLInputElement).checked;
                    setSelected(checked ? [...selected, issue.id] : selected.filter((id) => id !== issue.id));
                  }}
                />
                <div class="issue-summary">
                  <div class="issue-title">
                    <LevelMark level={issue.level} />
                    <Link href={`/organizations/${enc(org)}/issues/${issue.id}/`}>
                      <strong>{issue.metadata.type ?? issue.title}</strong>
                      {issue.metadata.type && issue.metadata.value ? <span class="issue-value"> {issue.metadata.value}</span> : null}
                    </Link>
                  </div>
                  {issue.culprit && <div class="issue-culprit muted small">{issue.culprit}</div>}
                  <div class="issue-meta small">
                    {issue.isBookmarked && (
                      <span class="bookmark-mark" title="Bookmarked" role="img" aria-label="Bookmarked">
                        ★
                      </span>
                    )}
                    <span class="short-id">{issue.shortId}</span>
                    <span class="muted">{issue.project.slug}</span>
                    {issue.status !== 'unresolved' && <span class={`status status-${issue.status}`}>{issue.status}</span>}
                    {issue.substatus === 'new' || issue.substatus === 'regressed' || issue.substatus === 'escalating' ? (
                      <span class={`badge badge-${issue.substatus}`}>{issue.substatus}</span>
                    ) : null}
                    {issue.isUnhandled && <span class="badge badge-unhandled">unhandled</span>}
                    {issue.numComments > 0 && <span class="muted">{issue.numComments === 1 ? '1 comment' : `${issue.numComments} comments`}</span>}
                  </div>
                </div>
                <div class="issue-graph">{issue.stats?.['24h'] && <Sparkline points={issue.stats['24h']} label="in the last 24 hours" />}</div>
                <div class="issue-count issue-events number" title={`${issue.count} events`}>
                  <span class="cell-label">Events </span>
                  {shortCount(issue.count)}
                </div>
                <div class="issue-count issue-users number" title={`${issue.userCount} users`}>
                  <span class="cell-label">Users </span>
                  {shortCount(issue.userCount)}
                </div>
                <div class="issue-seen issue-last small" title={formatDate(issue.lastSeen)}>
                  <span class="cell-label">Last seen </span>
                  {timeAgo(issue.lastSeen, now)}
                </div>
                <div class="issue-seen issue-first small" title={formatDate(issue.firstSeen)}>
                  <span class="cell-label">First seen </span>
                  {timeAgo(issue.firstSeen, now)}
                </div>
                <div class={issue.assignedTo ? 'issue-assignee small' : 'issue-assignee unassigned small'}>
                  <span class="cell-label">Assignee </span>
                  {issue.assignedTo ? issue.assignedTo.type === 'team' ? `#${issue.assignedTo.name}` : issue.assignedTo.name : <span class="muted">—</span>}
                </div>
              </li>
            ))}
          </ul>
        ) : (
          !issues.error && (
            <div class="empty-state">
              <p>
                <strong>No issues match this search.</strong>
              </p>
              <p class="muted">
                Errors appear here once an SDK sends them to a project's DSN.
                {firstProject ? (
                  <>
                    {' '}
                    Find the DSN under{' '}
                    <Link href={`/settings/${enc(org)}/projects/${enc(firstProject.slug)}/keys/`}>{firstProject.slug} › Client keys (DSN)</Link>.
                  </>
                ) : null}
              </p>
            </div>
          )
        )}
        {items.length > 0 && (
          <p class="stream-count muted small" aria-live="polite">
            {pageRange(state.cursor, items.length, issues.data?.hits, issues.data?.maxHits)}
          </p>
        )}
        {(issues.data?.nextCursor || issues.data?.previousCursor) && (
          <nav class="pager" aria-label="Pages">
            <button type="button" disabled={!issues.data?.previousCursor} onClick={() => go({ cursor: issues.data?.previousCursor })}>
              ← Previous
            </button>
            <button type="button" disabled={!issues.data?.nextCursor} onClick={() => go({ cursor: issues.data?.nextCursor })}>
              Next →
            </button>
          </nav>
        )}
      </section>
    </div>
  );
}
