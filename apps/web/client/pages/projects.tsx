import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { api, enc, list } from '../api';
import {
  type Access,
  Checkboxes,
  CopyableCode,
  ErrorNote,
  errorFor,
  Field,
  FormError,
  formatDate,
  NeedsScope,
  Section,
  SelectField,
  Skeleton,
  Status,
  useAccess,
  useLoad,
  useTitle,
} from '../components';
import type { Session } from '../main';
import { Link, navigate } from '../router';
import { PLATFORMS, snippetFor, SNIPPETS } from '../snippets';
import { EventsChart } from './events-chart';

interface Project {
  id: string;
  slug: string;
  name: string;
  platform: string | null;
  features: string[];
  dateCreated: string;
}

interface ProjectKey {
  id: string;
  name: string;
  isActive: boolean;
  rateLimit: { count: number; window: number } | null;
  dsn: { public: string; secret: string };
  dateCreated: string;
}

/** Features a project owner may turn on or off (the API refuses others' changes). */
const PROJECT_FEATURES = ['servicehooks'];

const projectPath = (org: string, project: string) => `/api/0/projects/${enc(org)}/${enc(project)}/`;
export const projectPage = (org: string, project: string) => `/organizations/${enc(org)}/projects/${enc(project)}/`;
export const projectSettings = (org: string, project: string) => `/settings/${enc(org)}/projects/${enc(project)}/`;
const keysPage = (org: string, project: string) => `${projectSettings(org, project)}keys/`;

const platformLabel = (platform: string | null) => PLATFORMS.find(([id]) => id === platform)?.[1] ?? platform ?? '—';

/** The organization's projects, with the way to create one. */
export function ProjectsPage(props: { params: Record<string, string> }) {
  const { org } = props.params;
  useTitle('Projects');
  const projects = useLoad(() => api<Project[]>('GET', `/api/0/organizations/${enc(org)}/projects/`).then(({ body }) => body), [org]);
  return (
    <>
      <div class="page-heading">
        <h1>Projects</h1>
        <Link href={`/organizations/${enc(org)}/projects/new/`} class="button primary">
          Create project
        </Link>
      </div>
      <Section title="Projects">
        <ErrorNote error={projects.error} />
        {projects.loading && !projects.data ? (
          <Skeleton rows={3} />
        ) : projects.data?.length ? (
          <ul class="plain-list project-list">
            {projects.data.map((project) => (
              <li key={project.slug}>
                <span>
                  <Link href={projectPage(org, project.slug)}>{project.name}</Link>{' '}
                  {project.platform && <span class="muted">{platformLabel(project.platform)}</span>}
                </span>
                <span class="row-links">
                  <Link href={projectSettings(org, project.slug)}>Settings</Link>
                  <Link href={keysPage(org, project.slug)}>Client keys</Link>
                  <Link href={`${projectSettings(org, project.slug)}hooks/`}>Service hooks</Link>
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p class="empty">No projects yet. Create one to get its DSN.</p>
        )}
      </Section>
    </>
  );
}

/** Sentry's project creation: a name, the team that owns it and its platform; then its DSN and setup. */
export function NewProjectPage(props: { params: Record<string, string> }) {
  const { org } = props.params;
  useTitle('Create a project');
  const teams = useLoad(() => api<Array<{ slug: string; name: string }>>('GET', `/api/0/organizations/${enc(org)}/teams/`).then(({ body }) => body), [org]);
  const [name, setName] = useState('');
  const [team, setTeam] = useState('');
  const [platform, setPlatform] = useState('javascript');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const chosenTeam = team || teams.data?.[0]?.slug || '';
  const create = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const { body } = await api<Project>(
        'POST',
        `/api/0/teams/${enc(org)}/${enc(chosenTeam)}/projects/`,
        { name, platform: platform === 'other' ? null : platform },
        ['name', 'slug', 'platform'],
      );
      navigate(`${keysPage(org, body.slug)}?created=1`);
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };
  return (
    <>
      <p>
        <Link href={`/settings/${enc(org)}/projects/`}>← Projects</Link>
      </p>
      <h1>Create a project</h1>
      <ErrorNote error={teams.error} />
      <Section title="Project">
        <form onSubmit={create} noValidate>
          <Field label="Project name" name="name" value={name} onInput={setName} error={errorFor(error, 'name', 'slug')} placeholder="checkout-web" required />
          {teams.data ? (
            teams.data.length ? (
              <SelectField
                label="Team"
                name="team"
                value={chosenTeam}
                options={teams.data.map((item) => [item.slug, item.name] as const)}
                onChange={setTeam}
                hint="The team whose members work on it."
              />
            ) : (
              <p class="notice">
                This organization has no team yet: <Link href={`/settings/${enc(org)}/teams/`}>create one</Link> first.
              </p>
            )
          ) : (
            <Skeleton rows={1} label="Loading teams" />
          )}
          <fieldset class="field">
            <legend>Platform</legend>
            <div class="platforms">
              {PLATFORMS.map(([id, label]) => (
                <label key={id} class="platform-choice">
                  <input type="radio" name="platform" value={id} checked={platform === id} onChange={() => setPlatform(id)} /> {label}
                </label>
              ))}
            </div>
          </fieldset>
          <FormError error={error} fields={['name', 'slug']} />
          <div class="actions">
            <button type="submit" class="primary" disabled={busy || !chosenTeam}>
              Create project
            </button>
          </div>
        </form>
      </Section>
    </>
  );
}

/** The project's page: what arrived lately, its DSN, and the ways to its settings. */
export function ProjectPage(props: { params: Record<string, string> }) {
  const { org, project } = props.params;
  const details = useLoad(
    () =>
      Promise.all([
        api<Project>('GET', projectPath(org, project)).then(({ body }) => body),
        api<ProjectKey[]>('GET', `${projectPath(org, project)}keys/`).then(({ body }) => body),
      ]),
    [org, project],
  );
  const [info, keys] = details.data ?? [];
  useTitle(info?.name ?? project);
  return (
    <>
      <p>
        <Link href={`/settings/${enc(org)}/projects/`}>← Projects</Link>
      </p>
      <div class="page-heading">
        <h1>{info?.name ?? project}</h1>
        <span class="row-links">
          <Link href={`/organizations/${enc(org)}/issues/`}>Issues</Link>
          <Link href={projectSettings(org, project)}>Settings</Link>
          <Link href={`${projectSettings(org, project)}hooks/`}>Service hooks</Link>
        </span>
      </div>
      <ErrorNote error={details.error} />
      <EventsChart org={org} project={project} />
      <Section
        title="Client keys (DSN)"
        actions={
          <Link href={keysPage(org, project)} class="button">
            Keys and setup
          </Link>
        }
      >
        {!details.data ? (
          !details.error && <Skeleton rows={2} />
        ) : keys?.length ? (
          <dl class="details">
            {keys.map((key) => (
              <Fragment key={key.id}>
                <dt>{key.name}</dt>
                <dd>
                  <code>{key.dsn.public}</code> {key.isActive ? null : <Status value="disabled" />}
                </dd>
              </Fragment>
            ))}
          </dl>
        ) : (
          <p class="empty">This project has no keys: create one on its keys page.</p>
        )}
      </Section>
    </>
  );
}

/** Sentry's project settings: name, slug, platform, and the features the owner may switch. */
export function ProjectSettingsPage(props: { params: Record<string, string>; session: Session }) {
  const { org, project } = props.params;
  useTitle('Project settings');
  const access = useAccess(org);
  // Feature flags are internal names: only those who may switch them (owners, instance administrators) see them.
  const showFeatures = access.role === 'owner' || props.session.user.isSuperuser;
  const details = useLoad(() => api<Project>('GET', projectPath(org, project)).then(({ body }) => body), [org, project]);
  const [form, setForm] = useState<{ name: string; slug: string; platform: string; features: string[] }>();
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState(false);
  const current =
    form ?? (details.data && { name: details.data.name, slug: details.data.slug, platform: details.data.platform ?? 'other', features: details.data.features });
  const save = async (event: Event) => {
    event.preventDefault();
    if (!current || !details.data) return;
    setError(undefined);
    setSaved(false);
    const changes: Record<string, unknown> = { name: current.name, slug: current.slug, platform: current.platform === 'other' ? null : current.platform };
    if (current.features.join() !== details.data.features.join()) changes.features = current.features;
    try {
      const { body } = await api<Project>('PUT', projectPath(org, project), changes, ['name', 'slug', 'platform', 'features']);
      setSaved(true);
      setForm(undefined);
      if (body.slug !== project) navigate(projectSettings(org, body.slug), { replace: true });
      else details.reload();
    } catch (failure) {
      setError(failure);
    }
  };
  const featureOptions = [...new Set([...PROJECT_FEATURES, ...(details.data?.features ?? [])])];
  return (
    <>
      <p>
        <Link href={projectPage(org, project)}>← {details.data?.name ?? project}</Link>
      </p>
      <h1>Project settings</h1>
      <ErrorNote error={details.error} />
      {!current ? (
        !details.error && <Skeleton rows={6} />
      ) : (
        <>
          <Section title="General">
            <form onSubmit={save} noValidate>
              <Field label="Name" name="name" value={current.name} onInput={(name) => setForm({ ...current, name })} error={errorFor(error, 'name')} required />
              <Field
                label="Slug"
                name="slug"
                value={current.slug}
                onInput={(slug) => setForm({ ...current, slug })}
                error={errorFor(error, 'slug')}
                hint="In URLs and the API. Changing it changes them."
              />
              <SelectField
                label="Platform"
                name="platform"
                value={current.platform}
                options={PLATFORMS}
                onChange={(platform) => setForm({ ...current, platform })}
                error={errorFor(error, 'platform')}
              />
              {showFeatures && (
                <>
                  <Checkboxes
                    legend="Features"
                    name="features"
                    options={featureOptions}
                    selected={current.features}
                    onChange={(features) => setForm({ ...current, features })}
                    error={errorFor(error, 'features')}
                  />
                  <p class="hint">Organization owners may change features; servicehooks turns on the project's service hooks.</p>
                </>
              )}
              <FormError error={error} fields={['name', 'slug', 'platform', 'features']} />
              <div class="actions">
                <button type="submit" class="primary" disabled={!access.has('project:write')}>
                  Save changes
                </button>
                {saved && (
                  <span role="status" class="saved">
                    Saved
                  </span>
                )}
              </div>
              <NeedsScope access={access} scope="project:write" what="change this project's settings" />
            </form>
          </Section>
          <Section title="More settings">
            <ul class="plain-list">
              <li>
                <Link href={keysPage(org, project)}>Client keys (DSN)</Link> <span class="muted">— DSNs, SDK setup, rate limits</span>
              </li>
              <li>
                <Link href={`${projectSettings(org, project)}hooks/`}>Service hooks</Link> <span class="muted">— signed callbacks for new events</span>
              </li>
              <li>
                <Link href={`${projectSettings(org, project)}filters/data-filters/`}>Inbound filters</Link>{' '}
                <span class="muted">— drop events from localhost, by error message or by release</span>
              </li>
              <li>
                <Link href={`${projectSettings(org, project)}ownership/`}>Ownership rules</Link>{' '}
                <span class="muted">— who owns an issue, by file, module, URL or tag; auto-assignment</span>
              </li>
              <li>
                <Link href={`${projectSettings(org, project)}security-and-privacy/`}>Security &amp; Privacy</Link>{' '}
                <span class="muted">— data scrubbing of passwords, card numbers, IP addresses</span>
              </li>
            </ul>
          </Section>
          {access.has('project:admin') && <TransferProject org={org} project={details.data!} />}
          <DeleteProject org={org} project={details.data!} access={access} />
        </>
      )}
    </>
  );
}

/**
 * Sentry's project transfer: the link goes by mail to an owner of the receiving organization, and
 * is shown here too, to pass on where no mail server is set up.
 */
function TransferProject(props: { org: string; project: Project }) {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<unknown>();
  const [sent, setSent] = useState<{ email: string; link: string }>();
  const send = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    setSent(undefined);
    try {
      const { body } = await api<{ transfer_link: string }>('POST', `${projectPath(props.org, props.project.slug)}transfer/`, { email }, ['email']);
      setSent({ email, link: body.transfer_link });
      setEmail('');
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <Section title="Transfer project">
      <form onSubmit={send} noValidate>
        <p>Move this project to another organization. Its issues, events, client keys and releases go with it; its teams stay here.</p>
        <Field
          label="Email of an owner of the receiving organization"
          name="transfer-email"
          type="email"
          value={email}
          onInput={setEmail}
          error={errorFor(error, 'email')}
          autoComplete="off"
        />
        <FormError error={error} fields={['email']} />
        <button type="submit" disabled={!email.trim()}>
          Send transfer link
        </button>
      </form>
      {sent && (
        <div class="shown-once" role="status">
          <p>
            Transfer link mailed to <strong>{sent.email}</strong> (valid for 7 days, once). Without a mail server, pass it on yourself:
          </p>
          <CopyableCode value={sent.link} label={`Copy the transfer link for ${sent.email}`} />
        </div>
      )}
    </Section>
  );
}

/** Deleting a project takes typing its slug, as in Sentry; its events, issues and keys go with it. */
function DeleteProject(props: { org: string; project: Project; access: Access }) {
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<unknown>();
  const allowed = props.access.has('project:admin');
  const remove = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    try {
      await api('DELETE', projectPath(props.org, props.project.slug));
      navigate(`/settings/${enc(props.org)}/projects/`);
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <Section title="Delete the project">
      <form onSubmit={remove} noValidate>
        <p>Its events, issues, client keys and settings are deleted for good; SDKs sending to its DSN are refused.</p>
        <Field label={`Type the project's slug (${props.project.slug}) to confirm`} name="confirm-slug" value={typed} onInput={setTyped} autoComplete="off" />
        <ErrorNote error={error} />
        <button type="submit" class="danger" disabled={!allowed || typed !== props.project.slug}>
          Delete project
        </button>
        <NeedsScope access={props.access} scope="project:admin" what="delete projects" />
      </form>
    </Section>
  );
}

function KeyPanel(props: { keyPath: string; projectKey: ProjectKey; access: Access; onChanged: () => void }) {
  const canWrite = props.access.has('project:write');
  const { projectKey } = props;
  const [name, setName] = useState(projectKey.name);
  const [count, setCount] = useState(projectKey.rateLimit ? String(projectKey.rateLimit.count) : '');
  const [seconds, setSeconds] = useState(projectKey.rateLimit ? String(projectKey.rateLimit.window) : '60');
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState(false);
  const put = async (changes: Record<string, unknown>) => {
    setError(undefined);
    setSaved(false);
    try {
      await api('PUT', props.keyPath, changes, ['name', 'rateLimit', 'rateLimit.count', 'rateLimit.window']);
      setSaved(true);
      props.onChanged();
    } catch (failure) {
      setError(failure);
    }
  };
  const save = (event: Event) => {
    event.preventDefault();
    const rateLimit = count.trim() === '' ? null : { count: Number(count), window: Number(seconds) };
    void put({ name, rateLimit });
  };
  const remove = async () => {
    if (!confirm(`Delete the key "${projectKey.name}"? SDKs using its DSN stop sending.`)) return;
    try {
      await api('DELETE', props.keyPath);
      props.onChanged();
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <Section title={projectKey.name} actions={<Status value={projectKey.isActive ? 'enabled' : 'disabled'} />}>
      <p class="field-label">DSN</p>
      <CopyableCode value={projectKey.dsn.public} label={`Copy the DSN of ${projectKey.name}`} />
      <p class="hint">Created {formatDate(projectKey.dateCreated)}.</p>
      <form onSubmit={save} noValidate class="key-form">
        <Field label="Name" name="name" value={name} onInput={setName} error={errorFor(error, 'name')} />
        <div class="inline-fields">
          <Field
            label="Rate limit (events)"
            name="count"
            value={count}
            onInput={setCount}
            error={errorFor(error, 'rateLimit.count', 'rateLimit')}
            hint="Empty: no limit."
          />
          <Field label="Per (seconds)" name="window" value={seconds} onInput={setSeconds} error={errorFor(error, 'rateLimit.window')} />
        </div>
        <FormError error={error} fields={['name', 'rateLimit', 'rateLimit.count', 'rateLimit.window']} />
        <div class="actions">
          <button type="submit" class="primary" disabled={!canWrite}>
            Save key
          </button>
          <button type="button" disabled={!canWrite} onClick={() => put({ isActive: !projectKey.isActive })}>
            {projectKey.isActive ? 'Disable' : 'Enable'}
          </button>
          <button type="button" class="danger" disabled={!props.access.has('project:admin')} onClick={remove}>
            Delete
          </button>
          {saved && (
            <span role="status" class="saved">
              Saved
            </span>
          )}
        </div>
        <NeedsScope access={props.access} scope="project:write" what="change client keys" />
      </form>
    </Section>
  );
}

/** The install command and init code of the SDK chosen, with the DSN in it. */
export function SetupSnippets(props: { dsn: string; platform: string | null }) {
  const [chosen, setChosen] = useState(snippetFor(props.platform).platform);
  const snippet = snippetFor(chosen);
  return (
    <Section title="Set up the SDK">
      <div class="snippet-choices" role="group" aria-label="SDK">
        {SNIPPETS.map((item) => (
          <button key={item.platform} type="button" aria-pressed={item.platform === chosen} onClick={() => setChosen(item.platform)}>
            {item.label}
          </button>
        ))}
      </div>
      <p class="field-label">Install</p>
      <CopyableCode value={snippet.install} label={`Copy the ${snippet.label} install command`} block />
      <p class="field-label">Initialise it as early as possible in your program</p>
      <CopyableCode value={snippet.code(props.dsn)} label={`Copy the ${snippet.label} snippet`} block />
    </Section>
  );
}

/** Sentry's Client Keys page: each key's DSN to copy, its rate limit and state, and the SDK setup. */
export function ProjectKeysPage(props: { params: Record<string, string> }) {
  const { org, project } = props.params;
  useTitle('Client keys');
  const access = useAccess(org);
  const keysPath = `${projectPath(org, project)}keys/`;
  const details = useLoad(() => Promise.all([api<Project>('GET', projectPath(org, project)).then(({ body }) => body), list<ProjectKey>(keysPath)]), [keysPath]);
  const [error, setError] = useState<unknown>();
  const created = new URLSearchParams(location.search).has('created');
  const [info, keys] = details.data ?? [];
  const firstActive = keys?.items.find((key) => key.isActive);
  const createKey = async () => {
    setError(undefined);
    try {
      await api('POST', keysPath, { name: `Key ${(keys?.items.length ?? 0) + 1}` }, ['name']);
      details.reload();
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <>
      <p>
        <Link href={projectPage(org, project)}>← {info?.name ?? project}</Link>
      </p>
      <div class="page-heading">
        <h1>Client keys (DSN)</h1>
        <button
          type="button"
          onClick={createKey}
          disabled={!access.has('project:write')}
          title={access.has('project:write') ? undefined : 'Your role cannot create keys (it needs project:write).'}
        >
          Create a key
        </button>
      </div>
      {created && info && (
        <p class="shown-once" role="status">
          Project <strong>{info.name}</strong> is ready. Send its first error with the DSN and the snippet below; it appears under{' '}
          <Link href={`/organizations/${enc(org)}/issues/`}>Issues</Link>.
        </p>
      )}
      <ErrorNote error={details.error ?? error} />
      {!details.data ? (
        !details.error && <Skeleton rows={8} label="Loading the keys" />
      ) : (
        <>
          {firstActive ? (
            <SetupSnippets dsn={firstActive.dsn.public} platform={info?.platform ?? null} />
          ) : (
            <p class="notice">No key is enabled: SDKs cannot send to this project.</p>
          )}
          {keys?.items.map((key) => (
            <KeyPanel key={key.id} keyPath={`${keysPath}${enc(key.id)}/`} projectKey={key} access={access} onChanged={details.reload} />
          ))}
        </>
      )}
    </>
  );
}
