import { useState } from 'preact/hooks';
import { api } from '../api';
import { ErrorNote, Section, SelectField, Skeleton, useLoad, useTitle } from '../components';
import { navigate, useSearch } from '../router';

interface TransferDetails {
  project: { id: string; slug: string; name: string; organization: { name: string } };
  organizations: Array<{ id: string; slug: string; name: string }>;
  expires: string;
}

/** Where a project transfer link leads (Sentry's accept-transfer): the owner it was sent to picks an organization they own. */
export function AcceptTransferPage() {
  useTitle('Accept a project transfer');
  const data = new URLSearchParams(useSearch()).get('data') ?? '';
  const details = useLoad(() => api<TransferDetails>('GET', `/api/0/accept-transfer/?data=${encodeURIComponent(data)}`).then(({ body }) => body), [data]);
  const [chosen, setChosen] = useState<string>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const organization = chosen ?? details.data?.organizations[0]?.slug ?? '';
  const accept = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    setBusy(true);
    try {
      const { body } = await api<{ organization: { slug: string }; project: { slug: string } }>('POST', '/api/0/accept-transfer/', { data, organization });
      navigate(`/settings/${encodeURIComponent(body.organization.slug)}/projects/${encodeURIComponent(body.project.slug)}/`);
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };
  return (
    <>
      <h1>Accept a project transfer</h1>
      <ErrorNote error={details.error} />
      {!details.data ? (
        !details.error && <Skeleton rows={3} />
      ) : (
        <Section title={`${details.data.project.name} from ${details.data.project.organization.name}`}>
          {details.data.organizations.length === 0 ? (
            <p>You own no other organization that could receive this project.</p>
          ) : (
            <form onSubmit={accept} noValidate>
              <p>
                The project <strong>{details.data.project.slug}</strong> moves with its issues, events, client keys and releases. Its teams stay behind: give it
                teams of your organization afterwards.
              </p>
              <SelectField
                label="Organization that receives it"
                name="organization"
                value={organization}
                options={details.data.organizations.map((o) => [o.slug, o.name] as [string, string])}
                onChange={setChosen}
              />
              <ErrorNote error={error} />
              <div class="actions">
                <button type="submit" class="primary" disabled={busy || !organization}>
                  Transfer project
                </button>
              </div>
            </form>
          )}
        </Section>
      )}
    </>
  );
}
