import { useState } from 'preact/hooks';
import { api, ApiError, enc } from '../api';
import {
  Checkboxes,
  ErrorNote,
  errorFor,
  Field,
  formatDate,
  NeedsScope,
  Section,
  showsControl,
  Skeleton,
  Status,
  useAccess,
  useLoad,
  useTitle,
} from '../components';
import { Link, navigate } from '../router';

const HOOK_EVENTS = ['event.alert', 'event.created'] as const;

interface Hook {
  id: string;
  url: string;
  secret: string;
  status: string;
  events: string[];
  dateCreated: string;
  disabledReason?: string;
}

interface Attempt {
  dateAttempted: string;
  statusCode: number | null;
  durationMs: number | null;
  error: string | null;
  response: { headers: Record<string, string>; body: string | null } | null;
}

interface Delivery {
  id: string;
  event: string;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  dateCreated: string;
  attemptLog: Attempt[];
}

const hooksPath = (org: string, project: string) => `/api/0/projects/${enc(org)}/${enc(project)}/hooks/`;
const hooksPage = (org: string, project: string) => `/settings/${enc(org)}/projects/${enc(project)}/hooks/`;

/** Missing feature: the API answers 403 "You do not have that feature enabled". */
function isFeatureMissing(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403 && /feature/i.test(error.detail);
}

function FeatureMissing(props: { org: string; project: string }) {
  return (
    <p class="notice" role="status">
      Service hooks are not enabled for this project. An organization owner can turn on its <code>servicehooks</code> feature in the{' '}
      <Link href={`/settings/${enc(props.org)}/projects/${enc(props.project)}/`}>project settings</Link>.
    </p>
  );
}

export function ServiceHooksPage(props: { params: Record<string, string> }) {
  const { org, project } = props.params;
  useTitle('Service hooks');
  const access = useAccess(org);
  const hooks = useLoad(() => api<Hook[]>('GET', hooksPath(org, project)).then(({ body }) => body), [org, project]);
  return (
    <>
      <h1>Service hooks</h1>
      <p class="lead">
        Project <strong>{project}</strong>: each hook receives a signed POST for the events it subscribes to.
      </p>
      {isFeatureMissing(hooks.error) ? (
        <FeatureMissing org={org} project={project} />
      ) : (
        <Section
          title="Hooks"
          actions={
            access.has('project:write') && (
              <Link href={`${hooksPage(org, project)}new/`} class="button primary">
                Add a hook
              </Link>
            )
          }
        >
          <NeedsScope access={access} scope="project:write" what="add or change service hooks" />
          <ErrorNote error={hooks.error} />
          {hooks.loading && !hooks.data ? (
            <Skeleton rows={3} />
          ) : hooks.data?.length ? (
            <table>
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col">Events</th>
                  <th scope="col">Status</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {hooks.data.map((hook) => (
                  <tr key={hook.id}>
                    <td>
                      <Link href={`${hooksPage(org, project)}${hook.id}/`}>{hook.url}</Link>
                    </td>
                    <td>{hook.events.join(', ')}</td>
                    <td>
                      <Status value={hook.status} />
                    </td>
                    <td>{formatDate(hook.dateCreated)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            !hooks.error && <p class="empty">No service hooks yet.</p>
          )}
        </Section>
      )}
    </>
  );
}

/**
 * Warns, before saving, when the outbound policy would refuse deliveries to the URL's host (a
 * loopback or private address), asking the server, which knows the policy, once the field is left.
 */
function useUrlCheck(org: string, project: string, enabled: boolean) {
  const [warning, setWarning] = useState<string>();
  const check = async (url: string) => {
    setWarning(undefined);
    if (!enabled || !/^https?:\/\/[^/]/i.test(url.trim())) return;
    try {
      const { body } = await api<{ reachable: boolean; reason: string | null }>('POST', `${hooksPath(org, project)}check-url/`, { url: url.trim() });
      if (!body.reachable) setWarning(`Deliveries to this URL would be refused: ${body.reason}.`);
    } catch {
      // The check only advises; saving says what is wrong with the URL.
    }
  };
  return { warning, check };
}

function UrlWarning(props: { warning?: string }) {
  return props.warning ? (
    <p class="notice" role="status">
      {props.warning}
    </p>
  ) : null;
}

export function NewServiceHookPage(props: { params: Record<string, string> }) {
  const { org, project } = props.params;
  useTitle('Add a service hook');
  const access = useAccess(org);
  // Checked while the role still loads: a field left before it arrives is still checked.
  const urlCheck = useUrlCheck(org, project, showsControl(access, 'project:write'));
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(['event.created']);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const save = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const { body } = await api<Hook>('POST', hooksPath(org, project), { url, events }, ['url', 'events']);
      navigate(`${hooksPage(org, project)}${body.id}/`);
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };
  const fieldError = (field: string) => (error instanceof ApiError ? error.field(field) : undefined);
  if (isFeatureMissing(error)) return <FeatureMissing org={org} project={project} />;
  return (
    <>
      <h1>Add a service hook</h1>
      <Section title="Hook">
        <form onSubmit={save} noValidate>
          <Field
            label="Callback URL"
            name="url"
            type="url"
            value={url}
            onInput={setUrl}
            error={fieldError('url')}
            placeholder="https://example.com/hooks/faultline"
            onBlur={() => void urlCheck.check(url)}
            required
          />
          <UrlWarning warning={urlCheck.warning} />
          <Checkboxes legend="Events" name="events" options={HOOK_EVENTS} selected={events} onChange={setEvents} error={fieldError('events')} />
          {error instanceof ApiError && Object.keys(error.fields).length ? null : <ErrorNote error={error} />}
          <div class="actions">
            <button type="submit" class="primary" disabled={busy || !access.has('project:write')}>
              Save hook
            </button>
            <Link href={hooksPage(org, project)}>Cancel</Link>
          </div>
          <NeedsScope access={access} scope="project:write" what="add service hooks" />
        </form>
      </Section>
    </>
  );
}

function DeliveryRow(props: { delivery: Delivery; canRedeliver: boolean; onRedeliver: () => void }) {
  const { delivery } = props;
  const last = delivery.attemptLog[0];
  return (
    <tr>
      <td>{formatDate(delivery.dateCreated)}</td>
      <td>{delivery.event}</td>
      <td>
        <Status value={delivery.status} />
      </td>
      <td>{delivery.lastStatusCode ?? (delivery.lastError ? 'error' : '—')}</td>
      <td>{last?.durationMs != null ? `${last.durationMs} ms` : '—'}</td>
      <td class="response">
        {last ? (
          <details>
            <summary>
              {delivery.attempts} attempt{delivery.attempts === 1 ? '' : 's'}
            </summary>
            {delivery.attemptLog.map((attempt) => (
              <div key={attempt.dateAttempted} class="attempt">
                <p>
                  {formatDate(attempt.dateAttempted)} · {attempt.statusCode ?? 'no response'} · {attempt.durationMs ?? '—'} ms
                </p>
                {attempt.error && <p class="field-error">{attempt.error}</p>}
                {attempt.response?.body ? <pre>{attempt.response.body}</pre> : null}
              </div>
            ))}
          </details>
        ) : (
          'not sent yet'
        )}
      </td>
      <td>
        <button type="button" onClick={props.onRedeliver} disabled={!props.canRedeliver} aria-label={`Redeliver ${delivery.id}`}>
          Redeliver
        </button>
      </td>
    </tr>
  );
}

/** Changes a hook's URL and events; its secret and deliveries stay. */
function EditHook(props: { org: string; project: string; path: string; hook: Hook; onSaved: () => void }) {
  const urlCheck = useUrlCheck(props.org, props.project, true);
  const [url, setUrl] = useState(props.hook.url);
  const [events, setEvents] = useState<string[]>(props.hook.events);
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState(false);
  const save = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    setSaved(false);
    try {
      await api('PUT', props.path, { url, events }, ['url', 'events']);
      setSaved(true);
      props.onSaved();
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <Section title="Edit">
      <form onSubmit={save} noValidate>
        <Field
          label="Callback URL"
          name="url"
          type="url"
          value={url}
          onInput={setUrl}
          onBlur={() => void urlCheck.check(url)}
          error={errorFor(error, 'url')}
          required
        />
        <UrlWarning warning={urlCheck.warning} />
        <Checkboxes legend="Events" name="events" options={HOOK_EVENTS} selected={events} onChange={setEvents} error={errorFor(error, 'events')} />
        {error instanceof ApiError && Object.keys(error.fields).length ? null : <ErrorNote error={error} />}
        <div class="actions">
          <button type="submit" class="primary">
            Save changes
          </button>
          {saved && (
            <span role="status" class="saved">
              Saved
            </span>
          )}
        </div>
      </form>
    </Section>
  );
}

export function ServiceHookPage(props: { params: Record<string, string> }) {
  const { org, project, hookId } = props.params;
  useTitle('Service hook');
  const access = useAccess(org);
  const canWrite = access.has('project:write');
  const path = `${hooksPath(org, project)}${enc(hookId)}/`;
  const hook = useLoad(() => api<Hook>('GET', path).then(({ body }) => body), [path]);
  const deliveries = useLoad(() => api<Delivery[]>('GET', `${path}deliveries/?per_page=25`).then(({ body }) => body), [path]);
  const [showSecret, setShowSecret] = useState(false);
  const [actionError, setActionError] = useState<unknown>();

  const act = async (work: () => Promise<unknown>) => {
    setActionError(undefined);
    try {
      await work();
      hook.reload();
      deliveries.reload();
    } catch (failure) {
      setActionError(failure);
    }
  };
  const remove = () =>
    act(async () => {
      if (!confirm('Delete this service hook? Its deliveries stop.')) return;
      await api('DELETE', path);
      navigate(hooksPage(org, project));
    });

  if (isFeatureMissing(hook.error)) return <FeatureMissing org={org} project={project} />;
  const data = hook.data;
  // Details and deliveries appear together, so the deliveries never move down under the reader.
  const deliveriesSettled = deliveries.data !== undefined || deliveries.error !== undefined;
  return (
    <>
      <p>
        <Link href={hooksPage(org, project)}>← Service hooks</Link>
      </p>
      <h1>Service hook</h1>
      <ErrorNote error={hook.error ?? actionError} />
      {!data || !deliveriesSettled ? (
        !hook.error && <Skeleton rows={10} label="Loading the hook" />
      ) : (
        <>
          <Section title="Details">
            <dl class="details">
              <dt>URL</dt>
              <dd>{data.url}</dd>
              <dt>Events</dt>
              <dd>{data.events.join(', ')}</dd>
              <dt>Status</dt>
              <dd>
                <Status value={data.status} />
                {data.disabledReason ? <span class="muted"> ({data.disabledReason})</span> : null}
              </dd>
              <dt>Secret</dt>
              <dd>
                {showSecret ? <code class="secret">{data.secret}</code> : <code>••••••••</code>}{' '}
                <button type="button" class="link-button" onClick={() => setShowSecret(!showSecret)} aria-expanded={showSecret}>
                  {showSecret ? 'Hide secret' : 'Show secret'}
                </button>
              </dd>
            </dl>
            <div class="actions">
              {data.status === 'active' ? (
                <button type="button" disabled={!canWrite} onClick={() => act(() => api('PUT', path, { isActive: false }))}>
                  Disable
                </button>
              ) : (
                <button type="button" disabled={!canWrite} onClick={() => act(() => api('PUT', path, { isActive: true }))}>
                  Enable
                </button>
              )}
              <button type="button" class="danger" disabled={!canWrite} onClick={remove}>
                Delete
              </button>
            </div>
            <NeedsScope access={access} scope="project:write" what="change, redeliver or delete service hooks" />
          </Section>
          <Section
            title="Recent deliveries"
            actions={
              <button type="button" onClick={() => deliveries.reload()}>
                Refresh
              </button>
            }
          >
            <ErrorNote error={deliveries.error} />
            {deliveries.data?.length ? (
              <table class="deliveries">
                <thead>
                  <tr>
                    <th scope="col">Created</th>
                    <th scope="col">Event</th>
                    <th scope="col">Status</th>
                    <th scope="col">Response</th>
                    <th scope="col">Duration</th>
                    <th scope="col">Attempts</th>
                    <th scope="col">
                      <span class="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {deliveries.data.map((delivery) => (
                    <DeliveryRow
                      key={delivery.id}
                      delivery={delivery}
                      canRedeliver={canWrite}
                      onRedeliver={() => act(() => api('POST', `${path}deliveries/${enc(delivery.id)}/redeliver/`))}
                    />
                  ))}
                </tbody>
              </table>
            ) : (
              !deliveries.error && <p class="empty">No deliveries yet. They appear here when an event the hook subscribes to happens.</p>
            )}
          </Section>
          {canWrite && <EditHook key={data.id} org={org} project={project} path={path} hook={data} onSaved={hook.reload} />}
        </>
      )}
    </>
  );
}
