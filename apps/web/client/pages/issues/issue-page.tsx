import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, enc, list } from '../../api';
import { CopyButton, ErrorNote, formatDate, type Loaded, Section, Skeleton, useAccess, useLoad, useTitle } from '../../components';
import { Link, navigate } from '../../router';
import { ActivityFeed } from './activity';
import { EventAttachments } from './attachments';
import { EventDetails, TagLink } from './event-details';
import { percent, shortCount, timeAgo } from './format';
import { MergedHashes } from './merged-hashes';
import { tagTerm } from './search';
import { ignoreGroups, resolveGroups, statusSummary } from './status-actions';
import type { Issue, IssueDetail, IssueEvent, Member, TagDistribution, Team } from './types';
import { EventsChart, LevelMark, Menu } from './widgets';

interface ExternalIssue {
  id: string;
  displayName: string;
  webUrl: string;
  serviceType: string;
}

export type IssueTab = 'details' | 'events' | 'merged' | 'activity';

/**
 * The last answers of the issue's own requests, per signed-in user. Each tab and event has its own
 * URL, so stepping between them mounts the page afresh: it starts from these (and asks again) and
 * only the event panel waits.
 */
const remembered = new Map<string, unknown>();

function useRemembered<T>(key: string, load: () => Promise<T>): Loaded<T> {
  const loaded = useLoad(async () => {
    const value = await load();
    remembered.delete(key);
    remembered.set(key, value);
    if (remembered.size > 40) remembered.delete(remembered.keys().next().value!);
    return value;
  }, [key]);
  return { ...loaded, data: loaded.error ? undefined : (loaded.data ?? (remembered.get(key) as T | undefined)) };
}

/** Linked issues of external trackers; the endpoint comes with the integration platform, so a 404 is an empty list. */
async function loadExternalIssues(base: string): Promise<ExternalIssue[]> {
  try {
    return (await api<ExternalIssue[]>('GET', `${base}external-issues/`)).body;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return [];
    throw error;
  }
}

function TagDistributions(props: { tags: TagDistribution[]; tagHref: (key: string, value: string) => string | undefined }) {
  if (!props.tags.length) return <p class="empty">No tags.</p>;
  return (
    <ul class="distributions">
      {props.tags.map((tag) => {
        const top = tag.topValues[0];
        const other = tag.totalValues - tag.topValues.reduce((sum, value) => sum + value.count, 0);
        return (
          <li key={tag.key}>
            <details>
              <summary>
                <span class="distribution-key">{tag.name}</span>
                <span class="distribution-top">
                  {top ? (
                    <>
                      <span class="distribution-value">{top.name}</span> <span class="muted">{percent(top.count, tag.totalValues)}</span>
                    </>
                  ) : (
                    '—'
                  )}
                </span>
                <span class="distribution-bar" aria-hidden="true">
                  {tag.topValues.map((value, index) => (
                    <span
                      key={value.value}
                      class={`segment segment-${index % 5}`}
                      style={{ width: `${(value.count / Math.max(1, tag.totalValues)) * 100}%` }}
                    />
                  ))}
                </span>
              </summary>
              <ol class="distribution-values">
                {tag.topValues.map((value, index) => (
                  <li key={value.value}>
                    <span class={`swatch segment-${index % 5}`} aria-hidden="true" />
                    <TagLink href={props.tagHref(tag.key, value.value)}>{value.name}</TagLink>
                    <span class="muted">
                      {percent(value.count, tag.totalValues)} · {shortCount(value.count)}
                    </span>
                  </li>
                ))}
                {other > 0 && (
                  <li>
                    <span class="swatch" aria-hidden="true" />
                    <span>Other</span>
                    <span class="muted">{percent(other, tag.totalValues)}</span>
                  </li>
                )}
              </ol>
            </details>
          </li>
        );
      })}
    </ul>
  );
}

function EventNavigation(props: { event: IssueEvent; eventsPath: string; jsonHref: string }) {
  const { event, eventsPath } = props;
  const step = (label: string, target: string | null, title: string) =>
    target ? (
      <Link href={`${eventsPath}${target}/`} class="button small-button" aria-label={title}>
        {label}
      </Link>
    ) : (
      <button type="button" class="small-button" disabled aria-label={title}>
        {label}
      </button>
    );
  return (
    <div class="event-bar">
      <div class="event-id">
        <h2>
          Event <code>{event.eventID.slice(0, 8)}</code>
        </h2>
        <span class="muted small">
          {formatDate(event.dateCreated)}
          {event.environment ? ` · ${event.environment}` : ''}
          {event.release?.version ? ` · ${event.release.version}` : ''}
        </span>
        <span class="event-tools small">
          <CopyButton value={event.eventID} label="Copy event ID" />
          <a href={props.jsonHref} target="_blank" rel="noopener noreferrer" aria-label="Event JSON (opens in a new tab)">
            JSON
          </a>
        </span>
      </div>
      <nav class="event-steps" aria-label="Events of this issue">
        {step('« Oldest', event.previousEventID ? 'oldest' : null, 'Oldest event')}
        {step('‹ Older', event.previousEventID, 'Older event')}
        {step('Newer ›', event.nextEventID, 'Newer event')}
        {step('Latest »', event.nextEventID ? 'latest' : null, 'Latest event')}
      </nav>
    </div>
  );
}

/** The event's user as people know them: e-mail, name or username before the SDK's id. */
function userLabel(event: IssueEvent): string | undefined {
  const user = event.user ?? {};
  return [user.email, user.name, user.username].find((value): value is string => typeof value === 'string' && value !== '');
}

function EventList(props: { base: string; eventsPath: string }) {
  const [cursor, setCursor] = useState<string | undefined>();
  const events = useLoad(() => list<IssueEvent>(`${props.base}events/?per_page=25${cursor ? `&cursor=${enc(cursor)}` : ''}`), [props.base, cursor]);
  const tag = (event: IssueEvent, key: string) => event.tags.find((item) => item.key === key)?.value ?? '—';
  return (
    <Section title="All events">
      <ErrorNote error={events.error} />
      {events.loading && !events.data ? (
        <Skeleton rows={6} label="Loading events" />
      ) : events.data?.items.length ? (
        <div class="table-scroll">
          <table class="event-list">
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Time</th>
                <th scope="col">Environment</th>
                <th scope="col">Release</th>
                <th scope="col">User</th>
              </tr>
            </thead>
            <tbody>
              {events.data.items.map((event) => (
                <tr key={event.eventID}>
                  <td data-label="Event">
                    <Link href={`${props.eventsPath}${event.eventID}/`}>
                      <code>{event.eventID.slice(0, 8)}</code>
                    </Link>{' '}
                    <span class="muted small">{event.message || event.title}</span>
                  </td>
                  <td data-label="Time" class="nowrap">
                    {formatDate(event.dateCreated)}
                  </td>
                  <td data-label="Environment">{tag(event, 'environment')}</td>
                  <td data-label="Release">{tag(event, 'release')}</td>
                  <td data-label="User">{userLabel(event) ?? tag(event, 'user')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        !events.error && <p class="empty">No events kept for this issue.</p>
      )}
      {(events.data?.nextCursor || events.data?.previousCursor) && (
        <nav class="pager" aria-label="Pages of events">
          <button type="button" disabled={!events.data?.previousCursor} onClick={() => setCursor(events.data?.previousCursor)}>
            ← Previous
          </button>
          <button type="button" disabled={!events.data?.nextCursor} onClick={() => setCursor(events.data?.nextCursor)}>
            Next →
          </button>
        </nav>
      )}
    </Section>
  );
}

export function IssuePage(props: { params: Record<string, string>; session: { user: { id: string } }; tab?: IssueTab }) {
  const { org, issueId, eventId } = props.params;
  const tab = props.tab ?? 'details';
  const base = `/api/0/organizations/${enc(org)}/issues/${enc(issueId)}/`;
  const pagePath = `/organizations/${enc(org)}/issues/${enc(issueId)}/`;
  const eventsPath = `${pagePath}events/`;
  const user = props.session.user.id;
  const [seenBefore] = useState(() => remembered.has(`${user} ${base}`));
  const issue = useRemembered(`${user} ${base}`, () => api<IssueDetail>('GET', base).then(({ body }) => body));
  const event = useLoad(
    () => (tab === 'details' ? api<IssueEvent>('GET', `${base}events/${enc(eventId ?? 'latest')}/`).then(({ body }) => body) : Promise.resolve(undefined)),
    [base, eventId, tab],
  );
  const tags = useRemembered(`${user} ${base}tags/`, () => api<TagDistribution[]>('GET', `${base}tags/`).then(({ body }) => body));
  const external = useRemembered(`${user} ${base}external-issues/`, () => loadExternalIssues(base));
  const people = useRemembered(`${user} ${org} people`, () =>
    Promise.all([
      api<Member[]>('GET', `/api/0/organizations/${enc(org)}/members/`).then(({ body }) => body),
      api<Team[]>('GET', `/api/0/organizations/${enc(org)}/teams/`).then(({ body }) => body),
    ]),
  );
  const access = useAccess(org);
  const similar = useLoad(() => api<Array<[Issue, Record<string, number>]>>('GET', `${base}similar/?limit=5`).then(({ body }) => body), [base]);
  const [period, setPeriod] = useState<'24h' | '30d'>('24h');
  const [actionError, setActionError] = useState<unknown>();
  const [pending, setPending] = useState(false);
  useTitle(issue.data?.title ?? 'Issue');
  // A merged issue's id answers as the issue it was merged into: show that one's own address.
  const answeredId = issue.data?.id;
  useEffect(() => {
    if (answeredId && answeredId !== issueId && /^\d+$/.test(issueId)) {
      navigate(`/organizations/${enc(org)}/issues/${enc(answeredId)}/${tab === 'details' ? '' : `${tab}/`}`, { replace: true });
    }
  }, [answeredId, issueId]);

  const remove = async () => {
    if (!confirm('Delete this issue and all its events? This cannot be undone.')) return;
    setActionError(undefined);
    setPending(true);
    try {
      await api('DELETE', base);
      remembered.delete(`${user} ${base}`);
      navigate(`/organizations/${enc(org)}/issues/`);
    } catch (failure) {
      setActionError(failure);
      setPending(false);
    }
  };

  // One change at a time: the buttons wait for the answer (and the reloaded issue) before the next.
  const update = async (change: Record<string, unknown>) => {
    setActionError(undefined);
    setPending(true);
    try {
      await api('PUT', base, change, Object.keys(change));
      issue.reload();
    } catch (failure) {
      setActionError(failure);
    } finally {
      setPending(false);
    }
  };

  const data = issue.data;
  const back = (
    <p class="breadcrumb">
      <Link href={`/organizations/${enc(org)}/issues/`}>Issues</Link>
      {data && <span class="muted"> › {data.shortId}</span>}
    </p>
  );
  // The page appears whole once its parts have arrived: parts of unknown height loading one by one
  // would push each other down. Seen before, it shows at once and the event panel waits alone.
  const settled = (loaded: { data?: unknown; error?: unknown; loading: boolean }) => !loaded.loading || loaded.data !== undefined || loaded.error !== undefined;
  if (!data || ![tags, external, people, ...(seenBefore ? [] : [event])].every(settled)) {
    return (
      <>
        {back}
        <ErrorNote error={issue.error} />
        {!issue.error && <Skeleton rows={12} label="Loading the issue" />}
      </>
    );
  }

  const tagHref = (key: string, value: string) => {
    const query = tagTerm(key, value);
    return query === undefined ? undefined : `/organizations/${enc(org)}/issues/?${new URLSearchParams({ query, project: data.project.id }).toString()}`;
  };
  const releases = tags.data?.find((tag) => tag.key === 'release')?.topValues.map((value) => value.value) ?? [];
  const [members, teams] = people.data ?? [[], []];
  const assigned = data.assignedTo ? `${data.assignedTo.type}:${data.assignedTo.id}` : '';
  const points = data.stats?.[period] ?? [];
  const now = Date.now();
  const tabs: Array<[IssueTab, string, string]> = [
    ['details', 'Details', pagePath],
    ['events', 'All events', `${pagePath}events/`],
    ['merged', 'Merged', `${pagePath}merged/`],
    ['activity', `Activity${data.numComments ? ` (${data.numComments})` : ''}`, `${pagePath}activity/`],
  ];

  return (
    <div class="issue-page">
      {back}
      <header class={`issue-header level-${data.level}`}>
        <div class="issue-heading">
          <h1>
            <LevelMark level={data.level} />
            <span>
              {data.metadata.type ?? data.title}
              {data.metadata.type && data.metadata.value && <span class="issue-value"> {data.metadata.value}</span>}
            </span>
          </h1>
          <p class="issue-meta small">
            <span class="short-id">{data.shortId}</span>
            <span class="muted">{data.project.slug}</span>
            {data.culprit && <span class="muted">{data.culprit}</span>}
            <span
              class={`status status-${data.status === 'unresolved' && (data.substatus === 'regressed' || data.substatus === 'escalating') ? data.substatus : data.status}`}
            >
              {statusSummary(data.status, data.statusDetails, data.substatus)}
            </span>
            {data.isUnhandled && <span class="badge badge-unhandled">unhandled</span>}
          </p>
        </div>
        <dl class="issue-counts">
          <div>
            <dt>Events</dt>
            <dd>{shortCount(data.count)}</dd>
          </div>
          <div>
            <dt>Users</dt>
            <dd>{shortCount(data.userCount)}</dd>
          </div>
        </dl>
      </header>

      <ErrorNote error={actionError} />
      <div class="issue-actions" role="group" aria-label="Issue actions">
        {data.status === 'unresolved' ? (
          <>
            <div class="split-button">
              <button type="button" class="primary" disabled={pending} onClick={() => update({ status: 'resolved', statusDetails: {} })}>
                Resolve
              </button>
              <Menu label="More resolve options" class="primary" disabled={pending} groups={resolveGroups(update, releases)}>
                ▾
              </Menu>
            </div>
            <Menu label="Ignore" disabled={pending} groups={ignoreGroups(update)}>
              Ignore ▾
            </Menu>
          </>
        ) : (
          <button type="button" disabled={pending} onClick={() => update({ status: 'unresolved', statusDetails: {} })}>
            {data.status === 'resolved' ? 'Unresolve' : 'Stop ignoring'}
          </button>
        )}
        <button
          type="button"
          class={data.isBookmarked ? 'bookmark-toggle bookmarked' : 'bookmark-toggle'}
          aria-pressed={data.isBookmarked ? 'true' : 'false'}
          disabled={pending}
          onClick={() => update({ isBookmarked: !data.isBookmarked })}
        >
          <span aria-hidden="true">{data.isBookmarked ? '★' : '☆'}</span> Bookmark
        </button>
        <div class="assignee">
          <label for="issue-assignee">Assignee</label>
          <select
            id="issue-assignee"
            value={assigned}
            disabled={pending}
            onChange={(changeEvent) => update({ assignedTo: (changeEvent.currentTarget as HTMLSelectElement).value || null })}
          >
            <option value="">Unassigned</option>
            {teams.length > 0 && (
              <optgroup label="Teams">
                {teams.map((team) => (
                  <option key={team.id} value={`team:${team.id}`}>
                    #{team.slug}
                  </option>
                ))}
              </optgroup>
            )}
            <optgroup label="Members">
              {members
                .filter((member) => member.user)
                .map((member) => (
                  <option key={member.id} value={`user:${member.user!.id}`}>
                    {member.user!.name || member.email}
                  </option>
                ))}
            </optgroup>
          </select>
        </div>
        <span class="issue-share small">
          Share <CopyButton value={data.permalink} label="Copy issue link" />
        </span>
        <button type="button" class="danger" disabled={pending} onClick={remove}>
          Delete
        </button>
      </div>

      <nav class="issue-tabs" aria-label="Issue">
        {tabs.map(([value, label, href]) => (
          <Link key={value} href={href} aria-current={tab === value ? 'page' : undefined}>
            {label}
          </Link>
        ))}
      </nav>

      <div class="issue-layout">
        <div class="issue-main">
          {tab === 'details' && (
            <section class="panel event-panel" aria-label="Event">
              <ErrorNote error={event.error} />
              {event.loading && <Skeleton rows={10} label="Loading the event" />}
              {event.data && !event.loading && (
                <>
                  <EventNavigation
                    event={event.data}
                    eventsPath={eventsPath}
                    jsonHref={`/api/0/projects/${enc(org)}/${enc(data.project.slug)}/events/${enc(event.data.eventID)}/json/`}
                  />
                  <EventDetails event={event.data} tagHref={tagHref} />
                  <EventAttachments org={org} project={data.project.slug} eventId={event.data.eventID} />
                </>
              )}
            </section>
          )}
          {tab === 'events' && <EventList base={base} eventsPath={eventsPath} />}
          {tab === 'merged' && <MergedHashes org={org} base={base} eventsPath={eventsPath} access={access} onUnmerged={issue.reload} />}
          {tab === 'activity' && (
            <Section title="Activity">
              <ActivityFeed activity={data.activity} base={base} userId={props.session.user.id} onChange={issue.reload} />
            </Section>
          )}
        </div>
        <aside class="issue-side">
          <section class="panel" aria-label="Events graph">
            <div class="panel-header">
              <h2>{period === '24h' ? 'Last 24 hours' : 'Last 30 days'}</h2>
              <div class="segmented" role="group" aria-label="Graph period">
                {(['24h', '30d'] as const).map((value) => (
                  <button key={value} type="button" class="small-button" aria-pressed={period === value} onClick={() => setPeriod(value)}>
                    {value}
                  </button>
                ))}
              </div>
            </div>
            <div class="panel-body">
              <EventsChart points={points} daily={period === '30d'} />
            </div>
          </section>
          <Section title="Seen">
            <dl class="seen">
              <div>
                <dt>First seen</dt>
                <dd>
                  <span title={formatDate(data.firstSeen)}>{timeAgo(data.firstSeen, now)}</span>
                  {data.firstRelease && <span class="release muted small">in {data.firstRelease.version}</span>}
                </dd>
              </div>
              <div>
                <dt>Last seen</dt>
                <dd>
                  <span title={formatDate(data.lastSeen)}>{timeAgo(data.lastSeen, now)}</span>
                  {data.lastRelease && <span class="release muted small">in {data.lastRelease.version}</span>}
                </dd>
              </div>
            </dl>
          </Section>
          <Section title="Tags">
            <ErrorNote error={tags.error} />
            {tags.data && <TagDistributions tags={tags.data} tagHref={tagHref} />}
          </Section>
          <Section title="Similar issues">
            <ErrorNote error={similar.error} />
            {similar.data?.length ? (
              <ul class="plain-list similar-issues">
                {similar.data.map(([other, scores]) => (
                  <li key={other.id}>
                    <Link href={`/organizations/${enc(org)}/issues/${enc(other.id)}/`}>
                      <span class="short-id">{other.shortId}</span> {other.title}
                    </Link>{' '}
                    <span class="muted small">
                      {[scores.title ? 'same title' : '', scores.culprit ? 'same culprit' : ''].filter(Boolean).join(', ')} · {shortCount(other.count)} events
                    </span>
                  </li>
                ))}
              </ul>
            ) : (
              !similar.error && !similar.loading && <p class="empty">No other issue of this project has the same title or culprit.</p>
            )}
          </Section>
          <Section title="Linked issues">
            <ErrorNote error={external.error} />
            {external.data?.length ? (
              <ul class="plain-list">
                {external.data.map((link) => (
                  <li key={link.id}>
                    <a href={link.webUrl} rel="noopener noreferrer" target="_blank">
                      {link.displayName}
                    </a>{' '}
                    <span class="muted">{link.serviceType}</span>
                  </li>
                ))}
              </ul>
            ) : (
              !external.error && <p class="empty">No linked issues. Installed integrations can link issues of their trackers here.</p>
            )}
          </Section>
        </aside>
      </div>
    </div>
  );
}
