import { useState } from 'preact/hooks';
import { api, enc } from '../api';
import {
  type Access,
  Checkboxes,
  ErrorNote,
  errorFor,
  FormError,
  NeedsScope,
  Section,
  SelectField,
  showsControl,
  Skeleton,
  TextArea,
  useAccess,
  useLoad,
  useTitle,
  WriteFields,
} from '../components';
import { Link } from '../router';
import { projectSettings } from './projects';

/** Sentry's data privacy settings, as projects and organizations both answer them. */
interface DataPrivacy {
  dataScrubber: boolean;
  dataScrubberDefaults: boolean;
  scrubIPAddresses: boolean;
  sensitiveFields: string[];
  safeFields: string[];
  storeCrashReports: number | null;
}

/** Sentry's labels for the three switches, each with the setting it turns on. */
const SWITCHES = [
  ['Data scrubber', 'dataScrubber'],
  ['Use default scrubbers', 'dataScrubberDefaults'],
  ['Prevent storing of IP addresses', 'scrubIPAddresses'],
] as const;
type SwitchLabel = (typeof SWITCHES)[number][0];

const CRASH_REPORTS: ReadonlyArray<readonly [string, string]> = [
  ['0', 'Disabled'],
  ['1', '1 per issue'],
  ['5', '5 per issue'],
  ['10', '10 per issue'],
  ['20', '20 per issue'],
  ['50', '50 per issue'],
  ['100', '100 per issue'],
  ['-1', 'Unlimited'],
];

const FIELDS = ['dataScrubber', 'dataScrubberDefaults', 'scrubIPAddresses', 'sensitiveFields', 'safeFields', 'storeCrashReports'];

interface Form {
  switches: SwitchLabel[];
  sensitiveFields: string;
  safeFields: string;
  storeCrashReports: string;
}

const formOf = (settings: DataPrivacy): Form => ({
  switches: SWITCHES.filter(([, key]) => settings[key]).map(([label]) => label),
  sensitiveFields: settings.sensitiveFields.join('\n'),
  safeFields: settings.safeFields.join('\n'),
  storeCrashReports: settings.storeCrashReports === null ? '' : String(settings.storeCrashReports),
});

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** The form both pages share: the settings at `path`, saved with Sentry's PUT of the same path. */
function DataPrivacyForm(props: { path: string; scope: 'project' | 'organization'; access: Access }) {
  // Data privacy changes need project:write on a project (the project PUT checks it) and org:write on the organization.
  const writeScope = props.scope === 'project' ? 'project:write' : 'org:write';
  const details = useLoad(() => api<DataPrivacy>('GET', props.path).then(({ body }) => body), [props.path]);
  const [form, setForm] = useState<Form>();
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState(false);
  const current = form ?? (details.data && formOf(details.data));
  const save = async (event: Event) => {
    event.preventDefault();
    if (!current) return;
    setError(undefined);
    setSaved(false);
    const changes: Record<string, unknown> = {
      ...Object.fromEntries(SWITCHES.map(([label, key]) => [key, current.switches.includes(label)])),
      sensitiveFields: lines(current.sensitiveFields),
      safeFields: lines(current.safeFields),
      storeCrashReports: current.storeCrashReports === '' ? null : Number(current.storeCrashReports),
    };
    try {
      await api('PUT', props.path, changes, FIELDS);
      setSaved(true);
      setForm(undefined);
      details.reload();
    } catch (failure) {
      setError(failure);
    }
  };
  const inherits = props.scope === 'project';
  if (!current) return details.error ? <ErrorNote error={details.error} /> : <Skeleton rows={6} />;
  return (
    <form onSubmit={save} noValidate>
      <WriteFields access={props.access} scope={writeScope}>
        <Section title="Data scrubbing">
          <Checkboxes
            legend={inherits ? 'Scrubbing' : 'Required of every project'}
            name="switches"
            options={SWITCHES.map(([label]) => label)}
            selected={current.switches}
            onChange={(switches) => setForm({ ...current, switches: switches as SwitchLabel[] })}
            error={errorFor(error, 'dataScrubber', 'dataScrubberDefaults', 'scrubIPAddresses')}
          />
          <p class="hint">
            {inherits
              ? 'Scrubbed values read [Filtered]. What the organization requires applies whatever is chosen here.'
              : 'Each setting turned on here applies to every project, whatever the project chose.'}
          </p>
          <TextArea
            label="Additional sensitive fields"
            name="sensitiveFields"
            rows={4}
            value={current.sensitiveFields}
            onInput={(sensitiveFields) => setForm({ ...current, sensitiveFields })}
            error={errorFor(error, 'sensitiveFields')}
            hint="One per line. A key or value containing one of them is scrubbed (case does not matter)."
          />
          <TextArea
            label="Safe fields"
            name="safeFields"
            rows={4}
            value={current.safeFields}
            onInput={(safeFields) => setForm({ ...current, safeFields })}
            error={errorFor(error, 'safeFields')}
            hint="One per line: keys (or paths such as extra.order_id) never scrubbed."
          />
        </Section>
        <Section title="Crash reports">
          <SelectField
            label="Store minidumps as attachments"
            name="storeCrashReports"
            value={current.storeCrashReports}
            options={inherits ? [['', 'Inherit organization setting'], ...CRASH_REPORTS] : CRASH_REPORTS}
            onChange={(storeCrashReports) => setForm({ ...current, storeCrashReports })}
            error={errorFor(error, 'storeCrashReports')}
          />
        </Section>
      </WriteFields>
      <FormError error={error} fields={FIELDS} />
      {showsControl(props.access, writeScope) && (
        <div class="actions">
          <button type="submit" class="primary" disabled={!props.access.has(writeScope)}>
            Save changes
          </button>
          {saved && (
            <span role="status" class="saved">
              Saved
            </span>
          )}
        </div>
      )}
      <NeedsScope access={props.access} scope={writeScope} what="change data scrubbing" />
    </form>
  );
}

/** `/settings/:org/projects/:project/security-and-privacy/`, as Sentry names it. */
export function ProjectSecurityAndPrivacyPage(props: { params: Record<string, string> }) {
  const { org, project } = props.params;
  useTitle('Security & Privacy');
  const access = useAccess(org);
  return (
    <>
      <p>
        <Link href={projectSettings(org, project)}>← Project settings</Link>
      </p>
      <h1>Security &amp; Privacy</h1>
      <DataPrivacyForm path={`/api/0/projects/${enc(org)}/${enc(project)}/`} scope="project" access={access} />
    </>
  );
}

/** `/settings/:org/security-and-privacy/`, as Sentry names it. */
export function OrganizationSecurityAndPrivacyPage(props: { params: Record<string, string> }) {
  const { org } = props.params;
  useTitle('Security & Privacy');
  const access = useAccess(org);
  return (
    <>
      <h1>Security &amp; Privacy</h1>
      <DataPrivacyForm path={`/api/0/organizations/${enc(org)}/`} scope="organization" access={access} />
    </>
  );
}
