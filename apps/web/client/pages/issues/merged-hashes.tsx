import { useState } from 'preact/hooks';
import { api, enc, list } from '../../api';
import { type Access, ErrorNote, formatDate, NeedsScope, Section, Skeleton, useLoad } from '../../components';
import { Link } from '../../router';
import type { IssueEvent } from './types';

interface IssueHash {
  id: string;
  latestEvent: IssueEvent | null;
}

/** Sentry's answer names no new issue; Faultline's does. */
interface Unmerged {
  id: string;
  shortId: string;
}

/**
 * The issue's fingerprints (the hashes its events were grouped by), each with its newest event.
 * With `event:write`, checked ones are unmerged into one new issue, as Sentry does.
 */
export function MergedHashes(props: { org: string; base: string; eventsPath: string; access: Access; onUnmerged: () => void }) {
  const hashes = useLoad(() => list<IssueHash>(`${props.base}hashes/?per_page=100`), [props.base]);
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>();
  const [unmerged, setUnmerged] = useState<Unmerged | undefined>();
  const canUnmerge = props.access.has('event:write');
  const items = hashes.data?.items ?? [];
  const toggle = (hash: string) => {
    const next = new Set(checked);
    if (!next.delete(hash)) next.add(hash);
    setChecked(next);
  };
  // The issue keeps at least one fingerprint.
  const all = items.length > 0 && items.every((item) => checked.has(item.id));

  const unmerge = async () => {
    const chosen = items.map((item) => item.id).filter((hash) => checked.has(hash));
    const noun = chosen.length === 1 ? 'fingerprint' : 'fingerprints';
    if (!confirm(`Unmerge ${chosen.length} ${noun} into a new issue? Their events move with them.`)) return;
    setError(undefined);
    setPending(true);
    try {
      const { body } = await api<Unmerged>('DELETE', `${props.base}hashes/?${chosen.map((hash) => `id=${enc(hash)}`).join('&')}`);
      setUnmerged(body);
      setChecked(new Set());
      hashes.reload();
      props.onUnmerged();
    } catch (failure) {
      setError(failure);
    } finally {
      setPending(false);
    }
  };

  return (
    <Section title="Merged fingerprints">
      <p class="hint">The fingerprints whose events make up this issue. Unmerging moves the checked ones, with their events, to one new issue.</p>
      <ErrorNote error={hashes.error ?? error} />
      {unmerged && (
        <p class="notice" role="status">
          Unmerged into <Link href={`/organizations/${enc(props.org)}/issues/${enc(unmerged.id)}/`}>{unmerged.shortId}</Link>.
        </p>
      )}
      <NeedsScope access={props.access} scope="event:write" what="unmerge fingerprints" />
      {hashes.loading && !hashes.data ? (
        <Skeleton rows={3} label="Loading fingerprints" />
      ) : items.length ? (
        <>
          <ul class="plain-list merged-hashes">
            {items.map((item) => (
              <li key={item.id}>
                {canUnmerge && (
                  <input
                    type="checkbox"
                    id={`hash-${item.id}`}
                    checked={checked.has(item.id)}
                    disabled={pending}
                    onChange={() => toggle(item.id)}
                    aria-label={`Select fingerprint ${item.id}`}
                  />
                )}
                <div class="merged-hash">
                  <code class="hash">{item.id}</code>
                  {item.latestEvent ? (
                    <span class="small">
                      <Link href={`${props.eventsPath}${item.latestEvent.eventID}/`}>{item.latestEvent.message || item.latestEvent.title}</Link>{' '}
                      <span class="muted">{formatDate(item.latestEvent.dateCreated)}</span>
                    </span>
                  ) : (
                    <span class="muted small">No event kept.</span>
                  )}
                </div>
              </li>
            ))}
          </ul>
          {canUnmerge && (
            <div class="merged-actions">
              <button type="button" disabled={pending || checked.size === 0 || all} onClick={unmerge}>
                Unmerge
              </button>
              {all && <span class="hint">An issue keeps at least one fingerprint.</span>}
            </div>
          )}
        </>
      ) : (
        !hashes.error && <p class="empty">No fingerprints.</p>
      )}
    </Section>
  );
}
