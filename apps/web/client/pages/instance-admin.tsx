import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, enc, list } from '../api';
import { ErrorNote, errorFor, Field, SelectField, Skeleton, useLoad, useTitle } from '../components';
import type { Session } from '../main';

interface Organization {
  id: string;
  slug: string;
  name: string;
  plan: string;
  features: string[];
  dateCreated: string;
}

/** The plans an organization can be on (the API's, in order). */
const PLANS = ['free', 'team', 'business', 'enterprise'] as const;

const splitFeatures = (text: string) => [...new Set(text.split(/[\s,]+/).filter(Boolean))];

function OrganizationRow(props: { organization: Organization; onSaved: () => void }) {
  const { organization } = props;
  const [plan, setPlan] = useState(organization.plan);
  const [features, setFeatures] = useState(organization.features.join(', '));
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState(false);
  const save = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    setSaved(false);
    try {
      await api('PUT', `/api/0/organizations/${enc(organization.slug)}/`, { plan, features: splitFeatures(features) }, ['plan', 'features']);
      setSaved(true);
      props.onSaved();
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <li class="panel org-admin" id={`org-${organization.slug}`}>
      <form onSubmit={save} noValidate aria-label={`Organization ${organization.name}`}>
        <h2>
          {organization.name} <span class="muted">{organization.slug}</span>
        </h2>
        <div class="inline-fields">
          <SelectField
            label="Plan"
            name="plan"
            value={plan}
            options={PLANS.map((item) => [item, item] as const)}
            onChange={setPlan}
            error={errorFor(error, 'plan')}
          />
          <Field
            label="Features"
            name="features"
            value={features}
            onInput={setFeatures}
            error={errorFor(error, 'features')}
            hint="Comma-separated feature flags."
          />
        </div>
        {error instanceof ApiError && (error.field('plan') || error.field('features')) ? null : <ErrorNote error={error} />}
        <div class="actions">
          <button type="submit" class="primary" aria-label={`Save ${organization.name}`}>
            Save
          </button>
          {saved && (
            <span role="status" class="saved">
              Saved
            </span>
          )}
        </div>
      </form>
    </li>
  );
}

/** Sentry's /manage/ for instance administrators: every organization's plan and feature flags. */
export function InstanceAdminPage(props: { session: Session }) {
  useTitle('Instance administration');
  const [cursor, setCursor] = useState<string>();
  const allowed = props.session.user.isSuperuser;
  const organizations = useLoad(
    () => (allowed ? list<Organization>(`/api/0/organizations/?show=all&per_page=50${cursor ? `&cursor=${enc(cursor)}` : ''}`) : Promise.resolve(undefined)),
    [allowed, cursor],
  );
  // Linked as /manage/organizations/#org-<slug> (from an organization's SSO page): bring that one into view.
  useEffect(() => {
    if (!organizations.data || !location.hash) return;
    const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    target?.scrollIntoView({ block: 'start' });
    target?.querySelector('select')?.focus({ preventScroll: true });
  }, [organizations.data]);
  if (!allowed) {
    return (
      <>
        <h1>Instance administration</h1>
        <p class="notice">Only instance administrators can change plans and features. Ask one, or use the CLI on the server.</p>
      </>
    );
  }
  return (
    <>
      <h1>Instance administration</h1>
      <p class="lead">Organizations of this instance: the plan decides what they may use (single sign-on and SCIM need business or enterprise).</p>
      <ErrorNote error={organizations.error} />
      {organizations.loading && !organizations.data ? (
        <Skeleton rows={6} />
      ) : (
        <ul class="org-admin-list">
          {organizations.data?.items.map((organization) => (
            <OrganizationRow key={organization.slug} organization={organization} onSaved={organizations.reload} />
          ))}
        </ul>
      )}
      {organizations.data?.nextCursor && (
        <button type="button" onClick={() => setCursor(organizations.data?.nextCursor)}>
          Next page
        </button>
      )}
    </>
  );
}
