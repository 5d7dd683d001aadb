import { useState } from 'preact/hooks';
import { api, enc } from '../api';
import { errorFor, FormError, NeedsScope, Section, SelectField, Skeleton, TextArea, ErrorNote, useAccess, useLoad, useTitle } from '../components';
import { Link } from '../router';

interface Ownership {
  raw: string | null;
  autoAssignment: string;
  lastUpdated: string | null;
}

const AUTO_ASSIGNMENT: ReadonlyArray<readonly [string, string]> = [
  ['Auto Assign to Issue Owner', 'Auto-assign new issues to their owner'],
  ['Turn off Auto-Assignment', 'Do not auto-assign'],
];

const EXAMPLE = ['# path, module, url or tags.<key>, a pattern, then owners', 'path:src/checkout/* #payments', 'url:*/admin/* jane@example.com'].join('\n');

/** Sentry's issue ownership rules: who owns an event, and whether a new issue is assigned to them. */
export function OwnershipRulesPage(props: { params: Record<string, string> }) {
  const { org, project } = props.params;
  useTitle('Ownership rules');
  const access = useAccess(org);
  const canWrite = access.has('project:write');
  const path = `/api/0/projects/${enc(org)}/${enc(project)}/ownership/`;
  const ownership = useLoad(() => api<Ownership>('GET', path).then(({ body }) => body), [path]);
  const [raw, setRaw] = useState<string>();
  const [autoAssignment, setAutoAssignment] = useState<string>();
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState(false);
  const fields = ['raw', 'autoAssignment'];
  const text = raw ?? ownership.data?.raw ?? '';
  const choice = autoAssignment ?? ownership.data?.autoAssignment ?? AUTO_ASSIGNMENT[0][0];
  const save = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    setSaved(false);
    try {
      await api('PUT', path, { raw: text, autoAssignment: choice }, fields);
      setRaw(undefined);
      setAutoAssignment(undefined);
      ownership.reload();
      setSaved(true);
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <>
      <p>
        <Link href={`/settings/${enc(org)}/projects/${enc(project)}/`}>← Project settings</Link>
      </p>
      <h1>Ownership rules</h1>
      <p class="lead">
        Rules name who owns an event by its stack frames' files or modules, its URL or its tags. When several match, the last one takes precedence: a new issue
        is assigned to its first owner.
      </p>
      <ErrorNote error={ownership.error} />
      {!ownership.data ? (
        !ownership.error && <Skeleton rows={8} />
      ) : (
        <Section title="Rules">
          <form noValidate onSubmit={(event) => void save(event)}>
            <TextArea
              label="Ownership rules"
              name="raw"
              value={text}
              onInput={(value) => {
                setSaved(false);
                setRaw(value);
              }}
              placeholder={EXAMPLE}
              hint="One rule a line: type:pattern, then owners (#team-slug or a member's e-mail address). Patterns take * and ?; # starts a comment."
              error={errorFor(error, 'raw')}
              readOnly={!canWrite}
              rows={10}
            />
            <SelectField
              label="Auto-assignment"
              name="autoAssignment"
              value={choice}
              options={AUTO_ASSIGNMENT}
              onChange={(value) => {
                setSaved(false);
                setAutoAssignment(value);
              }}
              error={errorFor(error, 'autoAssignment')}
              disabled={!canWrite}
            />
            <FormError error={error} fields={fields} />
            <div class="actions">
              <button type="submit" class="primary" disabled={!canWrite}>
                Save rules
              </button>
              {saved && (
                <span role="status" class="saved">
                  Ownership rules saved.
                </span>
              )}
            </div>
            <NeedsScope access={access} scope="project:write" what="change the ownership rules" />
          </form>
        </Section>
      )}
    </>
  );
}
