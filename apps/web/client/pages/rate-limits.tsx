import { useState } from 'preact/hooks';
import { api, enc } from '../api';
import { ErrorNote, formatDate, NeedsScope, Section, showsControl, Skeleton, Status, useAccess, useLoad, useTitle } from '../components';
import { Link } from '../router';

interface RateLimits {
  window: number;
  quotas: Array<{ category: string; limit: number | null; organizationLimit: number | null; instanceLimit: number | null }>;
  spikeProtection: { enabled: boolean; threshold: number | null; active: boolean; startedAt: string | null; limitedUntil: string | null };
}

const CATEGORY_NAMES: Record<string, string> = { error: 'Errors', user_report: 'User feedback', check_in: 'Cron check-ins', session: 'Sessions' };

const rateLimitsPath = (org: string) => `/api/0/organizations/${enc(org)}/rate-limits/`;

/** Shown on an organization's pages while spike protection drops its errors. */
export function SpikeNotice(props: { org: string; path: string }) {
  const limits = useLoad(() => api<RateLimits>('GET', rateLimitsPath(props.org)).then(({ body }) => body), [props.org, props.path]);
  const spike = limits.data?.spikeProtection;
  if (!spike?.active) return null;
  return (
    <p class="notice" role="status">
      Spike protection is dropping this organization&apos;s errors until {formatDate(spike.limitedUntil)}: they passed {spike.threshold} in an hour.{' '}
      <Link href={`/settings/${enc(props.org)}/rate-limits/`}>Rate limits</Link>
    </p>
  );
}

/** Spike protection on or off, and the quotas per category that apply to the organization. */
export function RateLimitsPage(props: { params: Record<string, string> }) {
  const { org } = props.params;
  useTitle('Rate limits');
  const access = useAccess(org);
  const limits = useLoad(() => api<RateLimits>('GET', rateLimitsPath(org)).then(({ body }) => body), [org]);
  const [error, setError] = useState<unknown>();
  const setSpikeProtection = async (enabled: boolean) => {
    setError(undefined);
    try {
      await api('PUT', rateLimitsPath(org), { spikeProtection: enabled });
      limits.reload();
    } catch (failure) {
      setError(failure);
    }
  };
  const data = limits.data;
  return (
    <>
      <h1>Rate limits</h1>
      <ErrorNote error={limits.error ?? error} />
      {!data ? (
        <Skeleton rows={4} />
      ) : (
        <>
          <Section title="Spike protection">
            <p>
              Spike protection is <Status value={data.spikeProtection.enabled ? 'enabled' : 'disabled'} />. When an hour&apos;s errors pass several times the
              usual hourly volume of the past week, the rest of that hour&apos;s errors are dropped, and the owners are mailed once per spike.
            </p>
            {data.spikeProtection.threshold !== null && <p>Current threshold: {data.spikeProtection.threshold} errors an hour.</p>}
            {data.spikeProtection.active && (
              <p class="notice" role="status">
                A spike began {formatDate(data.spikeProtection.startedAt)}; errors are dropped until {formatDate(data.spikeProtection.limitedUntil)}.
              </p>
            )}
            {showsControl(access, 'org:admin') && (
              <button type="button" disabled={!access.has('org:admin')} onClick={() => void setSpikeProtection(!data.spikeProtection.enabled)}>
                {data.spikeProtection.enabled ? 'Turn spike protection off' : 'Turn spike protection on'}
              </button>
            )}
            <NeedsScope access={access} scope="org:admin" what="switch spike protection" />
          </Section>
          <Section title="Quotas">
            <p>Items each category may send per {data.window >= 3600 ? `${data.window / 3600} hour(s)` : `${data.window / 60} minute(s)`}.</p>
            <table>
              <thead>
                <tr>
                  <th scope="col">Category</th>
                  <th scope="col" class="number">
                    Quota
                  </th>
                  <th scope="col">Set by</th>
                </tr>
              </thead>
              <tbody>
                {data.quotas.map((quota) => (
                  <tr key={quota.category}>
                    <td>{CATEGORY_NAMES[quota.category] ?? quota.category}</td>
                    <td class="number">{quota.limit ?? 'none'}</td>
                    <td>{quota.organizationLimit !== null ? 'this organization' : quota.instanceLimit !== null ? 'the instance' : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Section>
        </>
      )}
    </>
  );
}
