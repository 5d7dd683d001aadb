import type { ComponentChildren, InputHTMLAttributes } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, enc } from './api';

let fieldCounter = 0;
const useFieldId = (name: string) => useState(() => `field-${name}-${++fieldCounter}`)[0];

/** What every labelled text input takes. */
interface TextInputProps {
  label: string;
  name: string;
  value: string;
  onInput: (value: string) => void;
  error?: string;
  hint?: string;
  placeholder?: string;
}

/** A labelled input with its error below it; the error is announced and tied to the input. */
export function Field(
  props: TextInputProps & { type?: 'text' | 'email' | 'password' | 'url'; required?: boolean; autoComplete?: string; readOnly?: boolean; onBlur?: () => void },
) {
  const id = useFieldId(props.name);
  const describedBy = noteIds(id, props.hint, props.error);
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        {...({ type: props.type ?? 'text' } as InputHTMLAttributes<HTMLInputElement>)}
        value={props.value}
        required={props.required}
        readOnly={props.readOnly}
        autoComplete={props.autoComplete}
        placeholder={props.placeholder}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={describedBy}
        onInput={(event) => props.onInput((event.currentTarget as HTMLInputElement).value)}
        onBlur={props.onBlur}
      />
      <FieldNotes id={id} hint={props.hint} error={props.error} />
    </div>
  );
}

/** A group of checkboxes (a fieldset with a legend), with the group's error below it. */
export function Checkboxes(props: {
  legend: string;
  name: string;
  options: readonly string[];
  selected: readonly string[];
  onChange: (selected: string[]) => void;
  error?: string;
}) {
  const id = useFieldId(props.name);
  return (
    <fieldset class="field" aria-describedby={props.error ? `${id}-error` : undefined}>
      <legend>{props.legend}</legend>
      <div class="choices">
        {props.options.map((option) => (
          <label key={option} class="choice">
            <input
              type="checkbox"
              name={props.name}
              value={option}
              checked={props.selected.includes(option)}
              onChange={(event) => {
                const checked = (event.currentTarget as HTMLInputElement).checked;
                props.onChange(checked ? [...props.selected, option] : props.selected.filter((item) => item !== option));
              }}
            />{' '}
            {option}
          </label>
        ))}
      </div>
      <FieldError id={`${id}-error`} message={props.error} />
    </fieldset>
  );
}

/** The ids of a field's hint and error, for its aria-describedby. */
function noteIds(id: string, hint?: string, error?: string): string | undefined {
  return [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
}

/** Below a field: its hint and its error, each found by the field's aria-describedby. */
function FieldNotes(props: { id: string; hint?: string; error?: string }) {
  return (
    <>
      {props.hint && (
        <p class="hint" id={`${props.id}-hint`}>
          {props.hint}
        </p>
      )}
      <FieldError id={`${props.id}-error`} message={props.error} />
    </>
  );
}

export function FieldError(props: { id: string; message?: string }) {
  return props.message ? (
    <p class="field-error" id={props.id} role="alert">
      {props.message}
    </p>
  ) : null;
}

/** An error that concerns no one field (or the whole page). */
/** Only a field the form shows gets the message; the rest of the answer shows above the button. */
export function FormError(props: { error: unknown; fields: readonly string[] }) {
  const { error } = props;
  if (error instanceof ApiError && props.fields.some((field) => error.field(field))) return null;
  return <ErrorNote error={error} />;
}

export function ErrorNote(props: { error: unknown }) {
  if (!props.error) return null;
  const message = props.error instanceof ApiError ? props.error.detail : props.error instanceof Error ? props.error.message : String(props.error);
  return (
    <p class="error-note" role="alert">
      {message}
    </p>
  );
}

/** Placeholder rows of a fixed height while a list loads, so nothing moves when it arrives. */
export function Skeleton(props: { rows?: number; label?: string }) {
  return (
    <div class="skeleton" aria-busy="true" aria-label={props.label ?? 'Loading'}>
      {Array.from({ length: props.rows ?? 3 }, (_, index) => (
        <div key={index} class="skeleton-row" />
      ))}
    </div>
  );
}

export function Section(props: { title: string; children: ComponentChildren; actions?: ComponentChildren }) {
  return (
    <section class="panel" aria-label={props.title}>
      <div class="panel-header">
        <h2>{props.title}</h2>
        {props.actions}
      </div>
      <div class="panel-body">{props.children}</div>
    </section>
  );
}

/** A secret shown once, selectable, with a note saying so. */
export function ShownOnce(props: { label: string; value: string }) {
  return (
    <div class="shown-once" role="status">
      <p>
        <strong>{props.label}</strong> (shown once, copy it now):
      </p>
      <code class="secret" tabIndex={0}>
        {props.value}
      </code>
    </div>
  );
}

export interface Loaded<T> {
  data?: T;
  error?: unknown;
  loading: boolean;
  reload: () => void;
}

/** Loads data for a page; `key` changes reload it. */
export function useLoad<T>(load: () => Promise<T>, key: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => current && setState({ data, loading: false }),
      (error: unknown) => current && setState({ error, loading: false }),
    );
    return () => {
      current = false;
    };
  }, [...key, generation]);
  return { ...state, reload: () => setGeneration((value) => value + 1) };
}

export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Faultline`;
  }, [title]);
}

export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  return new Date(value).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function Status(props: { value: string }) {
  return <span class={`status status-${props.value}`}>{props.value}</span>;
}

/** A labelled multi-line input (certificates, keys), with its error below it. */
export function TextArea(props: TextInputProps & { rows?: number; readOnly?: boolean }) {
  const id = useFieldId(props.name);
  const describedBy = noteIds(id, props.hint, props.error);
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <textarea
        id={id}
        name={props.name}
        rows={props.rows ?? 6}
        readOnly={props.readOnly}
        value={props.value}
        placeholder={props.placeholder}
        spellcheck={false}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={describedBy}
        onInput={(event) => props.onInput((event.currentTarget as HTMLTextAreaElement).value)}
      />
      <FieldNotes id={id} hint={props.hint} error={props.error} />
    </div>
  );
}

/** A labelled select; options are [value, label] pairs. */
export function SelectField(props: {
  label: string;
  name: string;
  value: string;
  options: ReadonlyArray<readonly [string, string]>;
  onChange: (value: string) => void;
  error?: string;
  hint?: string;
  disabled?: boolean;
}) {
  const id = useFieldId(props.name);
  const describedBy = noteIds(id, props.hint, props.error);
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <select
        id={id}
        name={props.name}
        value={props.value}
        disabled={props.disabled}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={describedBy}
        onChange={(event) => props.onChange((event.currentTarget as HTMLSelectElement).value)}
      >
        {props.options.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
      <FieldNotes id={id} hint={props.hint} error={props.error} />
    </div>
  );
}

async function writeClipboard(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Without the Clipboard API (an insecure origin): the older way, through a selected textarea.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    const copied = document.execCommand('copy');
    area.remove();
    if (!copied) throw new Error('copy refused');
  }
}

/** Copies a value; says so (announced) for two seconds. */
export function CopyButton(props: { value: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = () =>
    writeClipboard(props.value).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  return (
    <span class="copy">
      <button type="button" class="copy-button" onClick={copy} aria-label={props.label}>
        Copy
      </button>
      <span class="copy-state" role="status">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Select and copy it by hand' : ''}
      </span>
    </span>
  );
}

/** A value to copy (a DSN, a command): shown in full, wrapping, with its copy button. */
export function CopyableCode(props: { value: string; label: string; block?: boolean }) {
  return (
    <div class={props.block ? 'copyable block' : 'copyable'}>
      {props.block ? (
        <pre tabIndex={0}>
          <code>{props.value}</code>
        </pre>
      ) : (
        <code tabIndex={0}>{props.value}</code>
      )}
      <CopyButton value={props.value} label={props.label} />
    </div>
  );
}

/** The first API error message for a field, among the names the API may use for it. */
export function errorFor(error: unknown, ...names: string[]): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  for (const name of names) {
    const message = error.field(name);
    if (message) return message;
  }
  return undefined;
}

/** What the signed-in member may do in an organization: Sentry's organization `access` list and role. */
export interface Access {
  readonly loaded: boolean;
  readonly role: string | null;
  has(scope: string): boolean;
}

/** The organization's `access` for the signed-in member; until it loads, nothing is allowed (controls stay disabled, never fail after Submit). */
export function useAccess(org: string): Access {
  const organization = useLoad(
    () => api<{ access: string[]; orgRole: string | null }>('GET', `/api/0/organizations/${enc(org)}/`).then(({ body }) => body),
    [org],
  );
  const scopes = new Set(organization.data?.access ?? []);
  return { loaded: organization.data !== undefined, role: organization.data?.orgRole ?? null, has: (scope) => scopes.has(scope) };
}

/**
 * Whether to show a write control: to those whose role allows it, and (disabled) while the role
 * loads; a member whose role cannot use it sees the page read-only, with NeedsScope saying why.
 */
export const showsControl = (access: Access, scope: string): boolean => !access.loaded || access.has(scope);

/** A form's fields, disabled (read-only) unless the role may change them. */
export function WriteFields(props: { access: Access; scope: string; children: ComponentChildren }) {
  return (
    <fieldset class="write-fields" disabled={!props.access.has(props.scope)}>
      {props.children}
    </fieldset>
  );
}

/** Why a control is disabled: the scope it needs, said once next to it. */
export function NeedsScope(props: { access: Access; scope: string; what: string }) {
  if (!props.access.loaded || props.access.has(props.scope)) return null;
  return <p class="hint needs-scope">{`Your role cannot ${props.what} (it needs ${props.scope}).`}</p>;
}
