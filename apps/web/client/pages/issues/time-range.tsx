import { useState } from 'preact/hooks';
import { TIME_RANGES } from './search';

/** A `datetime-local` value (the browser's time zone) as an ISO time, or undefined when incomplete. */
const isoOf = (local: string): string | undefined => (local && !Number.isNaN(Date.parse(local)) ? new Date(local).toISOString() : undefined);
/** An ISO time as a `datetime-local` value in the browser's time zone. */
const localOf = (iso: string | undefined): string => {
  if (!iso) return '';
  const at = new Date(iso);
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

/** The stream's time range: a relative period, or a custom start and end. */
export function TimeRangeFilter(props: {
  statsPeriod?: string;
  start?: string;
  end?: string;
  onChange: (range: { statsPeriod?: string; start?: string; end?: string }) => void;
}) {
  const custom = !props.statsPeriod && props.start && props.end;
  const [editing, setEditing] = useState(false);
  const [from, setFrom] = useState(localOf(props.start));
  const [to, setTo] = useState(localOf(props.end));
  const known = TIME_RANGES.some(([value]) => value === (props.statsPeriod ?? ''));
  const value = editing || custom ? 'custom' : (props.statsPeriod ?? '');
  const start = isoOf(from);
  const end = isoOf(to);

  return (
    <div class="stream-filter time-range">
      <label for="stream-period">Time range</label>
      <select
        id="stream-period"
        value={value}
        onChange={(event) => {
          const chosen = (event.currentTarget as HTMLSelectElement).value;
          if (chosen === 'custom') return setEditing(true);
          setEditing(false);
          props.onChange({ statsPeriod: chosen || undefined });
        }}
      >
        {TIME_RANGES.map(([period, label]) => (
          <option key={period} value={period}>
            {label}
          </option>
        ))}
        {!known && props.statsPeriod && <option value={props.statsPeriod}>Last {props.statsPeriod}</option>}
        <option value="custom">Custom range…</option>
      </select>
      {(editing || custom) && (
        <form
          class="custom-range"
          onSubmit={(event) => {
            event.preventDefault();
            if (!start || !end) return;
            setEditing(false);
            props.onChange({ start, end });
          }}
        >
          <label for="stream-start">From</label>
          <input id="stream-start" type="datetime-local" value={from} onInput={(event) => setFrom((event.currentTarget as HTMLInputElement).value)} />
          <label for="stream-end">To</label>
          <input id="stream-end" type="datetime-local" value={to} onInput={(event) => setTo((event.currentTarget as HTMLInputElement).value)} />
          <button type="submit" disabled={!start || !end || start >= end}>
            Apply
          </button>
        </form>
      )}
    </div>
  );
}
