import { useState } from 'preact/hooks';
import { api, ApiError, enc, list } from '../api';
import { ErrorNote, Field, formatDate, Section, Skeleton, Status, useLoad, useTitle } from '../components';
import { Link } from '../router';

const counted = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

interface Issue {
  id: string;
  shortId: string;
  title: string;
  culprit: string | null;
  level: string;
  status: string;
  count: string;
  userCount: number;
  firstSeen: string;
  lastSeen: string;
  project: { slug: string; name: string };
  assignedTo: { type: string; id: string; name: string; email?: string } | null;
  metadata: { type?: string; value?: string; title?: string };
  numComments: number;
}

interface Frame {
  filename: string | null;
  absPath: string | null;
  function: string | null;
  module: string | null;
  lineNo: number | null;
  colNo: number | null;
  inApp: boolean;
  context: Array<[number, string]>;
}

interface ExceptionValue {
  type: string | null;
  value: string | null;
  stacktrace: { frames: Frame[] } | null;
}

interface LatestEvent {
  eventID: string;
  dateCreated?: string;
  message?: string;
  tags: Array<{ key: string; value: string }>;
  entries: Array<{ type: string; data: { values?: ExceptionValue[] } }>;
}

interface Comment {
  id: string;
  data: { text: string };
  dateCreated: string;
  actor: { type: string; name: string | null };
}

interface ExternalIssue {
  id: string;
  displayName: string;
  webUrl: string;
  serviceType: string;
}

const STATUS_FILTERS: Array<[string, string]> = [
  ['is:unresolved', 'Unresolved'],
  ['is:resolved', 'Resolved'],
  ['is:ignored', 'Ignored'],
  ['', 'All'],
];

export function IssuesPage(props: { params: Record<string, string> }) {
  const { org } = props.params;
  useTitle('Issues');
  const [query, setQuery] = useState('is:unresolved');
  const [project, setProject] = useState('');
  const [cursor, setCursor] = useState<string | undefined>();
  const projects = useLoad(() => api<Array<{ id: string; slug: string; name: string }>>('GET', `/api/0/organizations/${enc(org)}/projects/`).then(({ body }) => body), [org]);
  const issues = useLoad(
    () =>
      list<Issue>(
        `/api/0/organizations/${enc(org)}/issues/?query=${enc(query)}&per_page=25${project ? `&project=${enc(project)}` : ''}${cursor ? `&cursor=${enc(cursor)}` : ''}`,
      ),
    [org, query, project, cursor],
  );
  return (
    <>
      <h1>Issues</h1>
      <div class="toolbar">
        <label for="issue-status">Status</label>
        <select
          id="issue-status"
          value={query}
          onChange={(event) => {
            setCursor(undefined);
            setQuery((event.currentTarget as HTMLSelectElement).value);
          }}
        >
          {STATUS_FILTERS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <label for="issue-project">Project</label>
        <select
          id="issue-project"
          value={project}
          onChange={(event) => {
            setCursor(undefined);
            setProject((event.currentTarget as HTMLSelectElement).value);
          }}
        >
          <option value="">All projects</option>
          {projects.data?.map((item) => (
            <option key={item.id} value={item.id}>
              {item.name}
            </option>
          ))}
        </select>
      </div>
      <Section title="Issues">
        <ErrorNote error={issues.error} />
        {issues.loading && !issues.data ? (
          <Skeleton rows={6} />
        ) : issues.data?.items.length ? (
          <table class="issues">
            <thead>
              <tr>
                <th scope="col">Issue</th>
                <th scope="col">Project</th>
                <th scope="col">Status</th>
                <th scope="col" class="number">
                  Events
                </th>
                <th scope="col" class="number">
                  Users
                </th>
                <th scope="col">Last seen</th>
                <th scope="col">Assignee</th>
              </tr>
            </thead>
            <tbody>
              {issues.data.items.map((issue) => (
                <tr key={issue.id}>
                  <td>
                    <Link href={`/organizations/${enc(org)}/issues/${issue.id}/`}>{issue.title}</Link>
                    <div class="muted small">
                      {issue.shortId} · {issue.culprit}
                    </div>
                  </td>
                  <td>{issue.project.slug}</td>
                  <td>
                    <Status value={issue.status} />
                  </td>
                  <td class="number">{issue.count}</td>
                  <td class="number">{issue.userCount}</td>
                  <td>{formatDate(issue.lastSeen)}</td>
                  <td>{issue.assignedTo?.name ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          !issues.error && <p class="empty">No issues match. Events sent by an SDK to a project's DSN appear here.</p>
        )}
        {issues.data?.nextCursor && (
          <button type="button" onClick={() => setCursor(issues.data?.nextCursor)}>
            Next page
          </button>
        )}
      </Section>
    </>
  );
}

function StackTrace(props: { event: LatestEvent }) {
  const exception = props.event.entries.find((entry) => entry.type === 'exception');
  const values = exception?.data?.values ?? [];
  if (!values.length) return <p class="empty">{props.event.message || 'This event has no exception.'}</p>;
  return (
    <>
      {[...values].reverse().map((value, index) => {
        const frames: Frame[] = value.stacktrace?.frames ?? [];
        return (
          <div key={index} class="exception">
            <h3>
              {value.type}: <span class="exception-value">{value.value}</span>
            </h3>
            <ol class="frames" reversed>
              {[...frames].reverse().map((frame, frameIndex) => (
                <li key={frameIndex} class={frame.inApp ? 'frame in-app' : 'frame'}>
                  <code>
                    {frame.filename ?? frame.module ?? frame.absPath ?? '?'}
                    {frame.function ? ` in ${frame.function}` : ''}
                    {frame.lineNo != null ? ` at line ${frame.lineNo}${frame.colNo != null ? `:${frame.colNo}` : ''}` : ''}
                  </code>
                  {frame.inApp && frame.context?.length ? (
                    <pre class="context">
                      {frame.context.map(([line, text]) => (
                        <span key={line} class={line === frame.lineNo ? 'line current' : 'line'}>
                          {`${String(line).padStart(5)}  ${text}`}
                        </span>
                      ))}
                    </pre>
                  ) : null}
                </li>
              ))}
            </ol>
          </div>
        );
      })}
    </>
  );
}

/** Linked issues of external trackers; the endpoint comes with the integration platform, so a 404 is an empty list. */
async function loadExternalIssues(org: string, issueId: string): Promise<ExternalIssue[]> {
  try {
    return (await api<ExternalIssue[]>('GET', `/api/0/organizations/${enc(org)}/issues/${enc(issueId)}/external-issues/`)).body;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return [];
    throw error;
  }
}

export function IssuePage(props: { params: Record<string, string> }) {
  const { org, issueId } = props.params;
  const base = `/api/0/organizations/${enc(org)}/issues/${enc(issueId)}/`;
  const issue = useLoad(() => api<Issue>('GET', base).then(({ body }) => body), [base]);
  const event = useLoad(() => api<LatestEvent>('GET', `${base}events/latest/`).then(({ body }) => body), [base]);
  const comments = useLoad(() => api<Comment[]>('GET', `${base}comments/`).then(({ body }) => body), [base]);
  const external = useLoad(() => loadExternalIssues(org, issueId), [base]);
  const members = useLoad(
    () => api<Array<{ id: string; email: string; user: { id: string; name: string } | null }>>('GET', `/api/0/organizations/${enc(org)}/members/`).then(({ body }) => body),
    [org],
  );
  const [actionError, setActionError] = useState<unknown>();
  const [comment, setComment] = useState('');
  const [commentError, setCommentError] = useState<unknown>();
  useTitle(issue.data?.title ?? 'Issue');

  // One change at a time: the buttons wait for the answer (and the reloaded issue) before the next.
  const [pending, setPending] = useState(false);
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
  const addComment = async (submitEvent: Event) => {
    submitEvent.preventDefault();
    setCommentError(undefined);
    try {
      await api('POST', `${base}comments/`, { text: comment }, ['text']);
      setComment('');
      comments.reload();
    } catch (failure) {
      setCommentError(failure);
    }
  };
  const data = issue.data;
  const back = (
    <p>
      <Link href={`/organizations/${enc(org)}/issues/`}>← Issues</Link>
    </p>
  );
  // The page appears whole, once its parts have arrived: sections of unknown height loading one by
  // one would push each other down.
  const settled = (loaded: { data?: unknown; error?: unknown }) => loaded.data !== undefined || loaded.error !== undefined;
  if (!data || ![event, comments, external, members].every(settled)) {
    return (
      <>
        {back}
        <ErrorNote error={issue.error} />
        {!issue.error && <Skeleton rows={12} label="Loading the issue" />}
      </>
    );
  }
  return (
    <>
      {back}
      <div class="issue-header">
        <h1>{data.title}</h1>
        <p class="muted">
          {data.shortId} · {data.culprit} · <Status value={data.status} /> · {counted(Number(data.count), 'event')} · {counted(data.userCount, 'user')} · first seen {formatDate(data.firstSeen)} · last seen{' '}
          {formatDate(data.lastSeen)}
        </p>
      </div>
      <ErrorNote error={actionError} />
      <div class="actions" role="group" aria-label="Issue actions">
        {data?.status === 'unresolved' ? (
          <>
            <button type="button" class="primary" disabled={pending} onClick={() => update({ status: 'resolved' })}>
              Resolve
            </button>
            <button type="button" disabled={pending} onClick={() => update({ status: 'ignored' })}>
              Ignore
            </button>
          </>
        ) : (
          <button type="button" disabled={pending} onClick={() => update({ status: 'unresolved' })}>
            Unresolve
          </button>
        )}
        <label for="assignee">Assignee</label>
        <select
          id="assignee"
          value={data?.assignedTo?.type === 'user' ? `user:${data.assignedTo.id}` : ''}
          disabled={!members.data}
          onChange={(changeEvent) => update({ assignedTo: (changeEvent.currentTarget as HTMLSelectElement).value || null })}
        >
          <option value="">Unassigned</option>
          {members.data
            ?.filter((member) => member.user)
            .map((member) => (
              <option key={member.id} value={`user:${member.user!.id}`}>
                {member.user!.name || member.email}
              </option>
            ))}
        </select>
      </div>
      <div class="issue-layout">
        <div>
          <Section title="Latest event">
            <ErrorNote error={event.error} />
            {event.data && <StackTrace event={event.data} />}
          </Section>
          <Section title="Comments">
            <ErrorNote error={comments.error} />
            {comments.data?.length ? (
              <ul class="comments">
                {comments.data.map((item) => (
                  <li key={item.id}>
                    <p class="muted small">
                      {item.actor.name ?? item.actor.type} · {formatDate(item.dateCreated)}
                    </p>
                    <p>{item.data.text}</p>
                  </li>
                ))}
              </ul>
            ) : (
              !comments.error && <p class="empty">No comments yet.</p>
            )}
            <form onSubmit={addComment} noValidate>
              <Field label="Add a comment" name="text" value={comment} onInput={setComment} error={commentError instanceof ApiError ? commentError.field('text') : undefined} />
              {commentError instanceof ApiError && commentError.field('text') ? null : <ErrorNote error={commentError} />}
              <button type="submit">Comment</button>
            </form>
          </Section>
        </div>
        <aside>
          <Section title="Tags">
            {event.data && (
              <dl class="tags">
                {event.data.tags.map((tag) => (
                  <div key={tag.key}>
                    <dt>{tag.key}</dt>
                    <dd>{tag.value}</dd>
                  </div>
                ))}
              </dl>
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
    </>
  );
}
