import { useState } from 'preact/hooks';
import { api, enc } from '../api';
import { ErrorNote, errorFor, NeedsScope, Section, Skeleton, TextArea, useAccess, useLoad, useTitle } from '../components';
import { Link } from '../router';

interface Filter {
  id: 'localhost' | 'error-messages' | 'releases';
  active: boolean;
  value?: string[];
}

const PATTERN_FILTERS: Array<{ id: 'error-messages' | 'releases'; title: string; hint: string }> = [
  { id: 'error-messages', title: 'Error messages', hint: 'One glob pattern a line (* and ?), matched against the error message, e.g. *ResizeObserver loop*.' },
  { id: 'releases', title: 'Releases', hint: 'One glob pattern a line, matched against the release, e.g. 1.2.* or *-beta.' },
];

/** Sentry's inbound data filters: events they match are dropped and counted as filtered in the project's stats. */
export function InboundFiltersPage(props: { params: Record<string, string> }) {
  const { org, project } = props.params;
  useTitle('Inbound filters');
  const access = useAccess(org);
  const canWrite = access.has('project:write');
  const path = `/api/0/projects/${enc(org)}/${enc(project)}/filters/`;
  const filters = useLoad(() => api<Filter[]>('GET', path).then(({ body }) => body), [path]);
  const [drafts, setDrafts] = useState<Record<string, string | undefined>>({});
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState<string>();
  // What the box was set to, until a failed save takes it back: a re-render before the filters reload would undo the click.
  const [localhostChoice, setLocalhostChoice] = useState<boolean>();
  const byId = (id: Filter['id']) => filters.data?.find((filter) => filter.id === id);
  const save = async (id: Filter['id'], body: Record<string, unknown>, label: string) => {
    setError(undefined);
    setSaved(undefined);
    try {
      await api('PUT', `${path}${id}/`, body, ['value', 'active']);
      setSaved(`${label} saved.`);
      filters.reload();
      return true;
    } catch (failure) {
      setError(failure);
      return false;
    }
  };
  const localhost = byId('localhost');
  return (
    <>
      <p>
        <Link href={`/settings/${enc(org)}/projects/${enc(project)}/`}>← Project settings</Link>
      </p>
      <h1>Inbound filters</h1>
      <p class="lead">Events these filters match are dropped before they are stored, and counted as filtered in the project's chart.</p>
      <ErrorNote error={filters.error} />
      {saved && <p role="status">{saved}</p>}
      {!filters.data ? (
        !filters.error && <Skeleton rows={8} />
      ) : (
        <>
          <Section title="Localhost">
            <label class="choice">
              <input
                type="checkbox"
                checked={localhostChoice ?? localhost?.active ?? false}
                disabled={!canWrite}
                onChange={(event) => {
                  const active = (event.target as HTMLInputElement).checked;
                  setLocalhostChoice(active);
                  void save('localhost', { active }, 'Localhost filter').then((ok) => ok || setLocalhostChoice(undefined));
                }}
              />{' '}
              Filter out events from localhost (127.0.0.1, ::1 and localhost URLs)
            </label>
          </Section>
          {PATTERN_FILTERS.map((filter) => {
            const text = drafts[filter.id] ?? (byId(filter.id)?.value ?? []).join('\n');
            return (
              <Section key={filter.id} title={filter.title}>
                <form
                  noValidate
                  onSubmit={(event) => {
                    event.preventDefault();
                    const value = text
                      .split('\n')
                      .map((line) => line.trim())
                      .filter(Boolean);
                    void save(filter.id, { value }, `${filter.title} filter`).then((done) => done && setDrafts({ ...drafts, [filter.id]: undefined }));
                  }}
                >
                  <TextArea
                    label={`${filter.title} to filter out`}
                    name={filter.id}
                    value={text}
                    onInput={(value) => setDrafts({ ...drafts, [filter.id]: value })}
                    hint={filter.hint}
                    error={errorFor(error, 'value')}
                    rows={4}
                  />
                  <button type="submit" class="primary" disabled={!canWrite}>
                    Save {filter.title.toLowerCase()} filter
                  </button>
                </form>
              </Section>
            );
          })}
          <ErrorNote error={error} />
          <NeedsScope access={access} scope="project:write" what="change inbound filters" />
        </>
      )}
    </>
  );
}
