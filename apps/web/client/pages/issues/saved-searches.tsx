import { useState } from 'preact/hooks';
import { api, enc } from '../../api';
import { ErrorNote, useLoad } from '../../components';
import { SORTS } from './search';
import type { SavedSearch } from './types';
import { Menu } from './widgets';

/**
 * The stream's saved searches: apply one (its query and sort), save the current search (for
 * oneself or, with org:write, the organization), or delete one.
 */
export function SavedSearches(props: { org: string; query: string; sort: string; onApply: (search: SavedSearch) => void }) {
  const { org } = props;
  const base = `/api/0/organizations/${enc(org)}/searches/`;
  const searches = useLoad(() => api<SavedSearch[]>('GET', `${base}?type=0`).then(({ body }) => body), [org]);
  const [saving, setSaving] = useState(false);
  const [name, setName] = useState('');
  const [shared, setShared] = useState(false);
  const [error, setError] = useState<unknown>();
  const [pending, setPending] = useState(false);

  const act = async (work: () => Promise<unknown>) => {
    setError(undefined);
    setPending(true);
    try {
      await work();
      searches.reload();
      return true;
    } catch (failure) {
      setError(failure);
      return false;
    } finally {
      setPending(false);
    }
  };
  const save = async (event: Event) => {
    event.preventDefault();
    const body = { type: 0, name, query: props.query, sort: props.sort, visibility: shared ? 'organization' : 'owner' };
    if (await act(() => api('POST', base, body))) {
      setSaving(false);
      setName('');
      setShared(false);
    }
  };
  const items = searches.data ?? [];
  const sortLabel = (sort: string) => SORTS.find(([value]) => value === sort)?.[1] ?? sort;

  return (
    <div class="saved-searches">
      <Menu
        label="Saved searches"
        disabled={pending}
        groups={[
          {
            label: 'Saved searches',
            items: items.length
              ? items.map((search) => ({
                  label: `${search.name}${search.visibility === 'organization' ? ' (shared)' : ''}`,
                  onSelect: () => props.onApply(search),
                }))
              : [{ label: 'None saved yet', onSelect: () => undefined, disabled: true }],
          },
          { items: [{ label: 'Save current search…', onSelect: () => setSaving(true) }] },
          ...(items.length
            ? [
                {
                  label: 'Delete',
                  items: items.map((search) => ({
                    label: `Delete “${search.name}”`,
                    onSelect: () => void act(() => api('DELETE', `${base}${enc(search.id)}/`)),
                  })),
                },
              ]
            : []),
        ]}
      >
        Saved searches ▾
      </Menu>
      {saving && (
        <form class="save-search" onSubmit={save} aria-label="Save the current search">
          <label for="saved-search-name">Name</label>
          <input
            id="saved-search-name"
            value={name}
            maxLength={128}
            required
            autoFocus
            onInput={(event) => setName((event.currentTarget as HTMLInputElement).value)}
          />
          <span class="muted small">
            <code>{props.query || '(every issue)'}</code>, {sortLabel(props.sort)}
          </span>
          <label class="inline">
            <input type="checkbox" checked={shared} onChange={(event) => setShared((event.currentTarget as HTMLInputElement).checked)} /> Share with the
            organization
          </label>
          <button type="submit" class="primary" disabled={pending || !name.trim()}>
            Save
          </button>
          <button type="button" onClick={() => setSaving(false)}>
            Cancel
          </button>
        </form>
      )}
      <ErrorNote error={error ?? searches.error} />
    </div>
  );
}
