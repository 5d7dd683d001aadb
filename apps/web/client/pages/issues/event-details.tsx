import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { BYTE_CONTEXT_KEYS, formatBytes } from '../../format-bytes';
import { Link } from '../../router';
import type { Breadcrumb, ExceptionValue, Frame, IssueEvent, RequestData, Stacktrace } from './types';

/** A part of the event (Exception, Breadcrumbs, Request…): a titled block of the event's panel. */
function EventSection(props: { title: string; children: ComponentChildren; actions?: ComponentChildren }) {
  const id = `event-section-${props.title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section class="event-section" aria-labelledby={id}>
      <div class="event-section-header">
        <h3 id={id}>{props.title}</h3>
        {props.actions}
      </div>
      {props.children}
    </section>
  );
}

/** A value of any shape: text as it is, anything else as indented JSON. */
function Value(props: { value: unknown }) {
  const { value } = props;
  if (value === null || value === undefined) return <span class="muted">null</span>;
  if (typeof value === 'string') return <span class="kv-text">{value}</span>;
  if (typeof value === 'number' || typeof value === 'boolean') return <code>{String(value)}</code>;
  return <pre class="kv-json">{JSON.stringify(value, null, 2)}</pre>;
}

/** Key/value rows, as Sentry's event sections show them. */
export function KeyValues(props: { rows: Array<[string, unknown]>; label?: string }) {
  const rows = props.rows.filter(([, value]) => value !== undefined && value !== null && value !== '');
  if (!rows.length) return <p class="empty">None.</p>;
  return (
    <dl class="kv" aria-label={props.label}>
      {rows.map(([key, value], index) => (
        <div key={`${key}-${index}`} class="kv-row">
          <dt>{key}</dt>
          <dd>
            <Value value={value} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

const frameLocation = (frame: Frame) => frame.filename ?? frame.absPath ?? frame.module ?? frame.package ?? '?';

function FrameRow(props: { frame: Frame }) {
  const { frame } = props;
  const hasContext = frame.context?.length > 0;
  const [open, setOpen] = useState(frame.inApp && hasContext);
  const heading = (
    <>
      <span class="frame-file">{frameLocation(frame)}</span>
      {frame.function && (
        <>
          <span class="muted"> in </span>
          <span class="frame-function">{frame.function}</span>
        </>
      )}
      {frame.lineNo != null && (
        <span class="muted">
          {' '}
          at line {frame.lineNo}
          {frame.colNo != null ? `:${frame.colNo}` : ''}
        </span>
      )}
      {frame.inApp && <span class="badge badge-app">In app</span>}
    </>
  );
  return (
    <li class={frame.inApp ? 'frame in-app' : 'frame'}>
      {hasContext ? (
        <button type="button" class="frame-heading" aria-expanded={open} onClick={() => setOpen(!open)}>
          <span class="chevron" aria-hidden="true">
            {open ? '▾' : '▸'}
          </span>
          {heading}
        </button>
      ) : (
        <div class="frame-heading">{heading}</div>
      )}
      {open && (
        <ol class="source" start={frame.context[0][0]}>
          {frame.context.map(([line, text]) => (
            <li key={line} class={line === frame.lineNo ? 'current' : undefined}>
              <span class="line-no" aria-hidden="true">
                {line}
              </span>
              <code>{text || ' '}</code>
            </li>
          ))}
        </ol>
      )}
      {open && frame.vars && Object.keys(frame.vars).length > 0 && <KeyValues rows={Object.entries(frame.vars)} label="Local variables" />}
    </li>
  );
}

/**
 * The frames, most recent call first. Runs of library and runtime frames fold into one row that
 * opens them; a trace with no in-app frame at all shows every frame.
 */
export function Frames(props: { stacktrace: Stacktrace; full: boolean }) {
  const frames = [...props.stacktrace.frames].reverse();
  const anyInApp = frames.some((frame) => frame.inApp);
  const [opened, setOpened] = useState<number[]>([]);
  const groups: Array<{ start: number; frames: Frame[]; system: boolean }> = [];
  frames.forEach((frame, index) => {
    const system = anyInApp && !props.full && !frame.inApp;
    const last = groups[groups.length - 1];
    if (last && last.system && system) last.frames.push(frame);
    else groups.push({ start: index, frames: [frame], system });
  });
  return (
    <ol class="frames">
      {groups.map((group) =>
        group.system && !opened.includes(group.start) ? (
          <li key={`fold-${group.start}`} class="frame frame-fold">
            <button type="button" class="link-button" aria-expanded="false" onClick={() => setOpened([...opened, group.start])}>
              Show {group.frames.length} library frame{group.frames.length === 1 ? '' : 's'}
            </button>
          </li>
        ) : (
          group.frames.map((frame, offset) => <FrameRow key={`${group.start}-${offset}`} frame={frame} />)
        ),
      )}
    </ol>
  );
}

function Exception(props: { values: ExceptionValue[] }) {
  const [full, setFull] = useState(false);
  // Source-mapped frames first; the frames as the minified code threw them one click away.
  const [minified, setMinified] = useState(false);
  const hasMinified = props.values.some((value) => value.rawStacktrace?.frames.length);
  const traceOf = (value: ExceptionValue) => (minified && value.rawStacktrace ? value.rawStacktrace : value.stacktrace);
  const hasSystemFrames = props.values.some(
    (value) => traceOf(value)?.frames.some((frame) => !frame.inApp) && traceOf(value)?.frames.some((frame) => frame.inApp),
  );
  return (
    <EventSection
      title="Exception"
      actions={
        <>
          {hasMinified && (
            <button type="button" class="small-button" aria-pressed={minified} onClick={() => setMinified(!minified)}>
              {minified ? 'Original source' : 'Minified'}
            </button>
          )}
          {hasSystemFrames && (
            <button type="button" class="small-button" aria-pressed={full} onClick={() => setFull(!full)}>
              {full ? 'App frames only' : 'Full stack trace'}
            </button>
          )}
        </>
      }
    >
      {[...props.values].reverse().map((value, index) => (
        <div key={index} class="exception">
          <p class="exception-title">
            <strong>{value.type ?? 'Error'}</strong>
            {value.mechanism?.handled === false && <span class="badge badge-unhandled">unhandled</span>}
            {value.mechanism?.type && <span class="badge">mechanism: {value.mechanism.type}</span>}
          </p>
          {value.value && <pre class="exception-value">{value.value}</pre>}
          {traceOf(value)?.frames.length ? (
            <Frames key={minified ? 'minified' : 'mapped'} stacktrace={traceOf(value)!} full={full} />
          ) : (
            <p class="empty">No stack trace.</p>
          )}
        </div>
      ))}
    </EventSection>
  );
}

function Message(props: { data: { formatted?: string | null; message?: string | null; params?: unknown } }) {
  const text = props.data.formatted || props.data.message || '';
  return (
    <EventSection title="Message">
      <pre class="message">{text}</pre>
      {props.data.params ? <KeyValues rows={[['params', props.data.params]]} /> : null}
    </EventSection>
  );
}

const time = (value: string | null) =>
  value
    ? new Date(value).toLocaleTimeString(undefined, {
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        fractionalSecondDigits: 3,
      } as Intl.DateTimeFormatOptions)
    : '—';

function crumbText(crumb: Breadcrumb): ComponentChildren {
  const data = crumb.data && Object.keys(crumb.data).length ? crumb.data : undefined;
  if (crumb.type === 'http' && data) {
    return (
      <>
        <code>{String(data.method ?? 'GET')}</code> {String(data.url ?? '')}
        {data.status_code != null && <span class={Number(data.status_code) >= 400 ? 'http-status bad' : 'http-status'}> [{String(data.status_code)}]</span>}
      </>
    );
  }
  return (
    <>
      {crumb.message && <span class="kv-text">{crumb.message}</span>}
      {data && (
        <code class="crumb-data">
          {Object.entries(data)
            .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
            .join(' ')}
        </code>
      )}
    </>
  );
}

/** The trail before the error, newest last as the SDK sent it: time, category, level, message. */
function Breadcrumbs(props: { values: Breadcrumb[] }) {
  const [all, setAll] = useState(false);
  const shown = all ? props.values : props.values.slice(-20);
  return (
    <EventSection title="Breadcrumbs">
      {props.values.length > shown.length && (
        <button type="button" class="link-button" onClick={() => setAll(true)}>
          Show {props.values.length - shown.length} older breadcrumbs
        </button>
      )}
      <div class="table-scroll">
        <table class="breadcrumbs">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Category</th>
              <th scope="col">Level</th>
              <th scope="col">Message</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((crumb, index) => (
              <tr key={index} class={`crumb crumb-${crumb.level ?? 'info'}`}>
                <td data-label="Time" class="nowrap">
                  <code>{time(crumb.timestamp)}</code>
                </td>
                <td data-label="Category">{crumb.category ?? crumb.type ?? 'default'}</td>
                <td data-label="Level">
                  <span class={`level-text level-${crumb.level ?? 'info'}`}>{crumb.level ?? 'info'}</span>
                </td>
                <td data-label="Message" class="crumb-message">
                  {crumbText(crumb)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </EventSection>
  );
}

const pairs = (value: Array<[string, string]> | string | null | undefined): Array<[string, unknown]> =>
  Array.isArray(value) ? value : value ? [['', value]] : [];

function Request(props: { data: RequestData }) {
  const { data } = props;
  return (
    <EventSection title="Request">
      <p class="request-line">
        <code class="method">{data.method ?? 'GET'}</code> <span class="kv-text">{data.url}</span>
      </p>
      {pairs(data.query).length > 0 && (
        <>
          <h4>Query string</h4>
          <KeyValues rows={pairs(data.query)} label="Query string" />
        </>
      )}
      {data.fragment && <KeyValues rows={[['Fragment', data.fragment]]} />}
      {data.data !== undefined && data.data !== null && (
        <>
          <h4>Body</h4>
          {typeof data.data === 'object' && !Array.isArray(data.data) ? (
            <KeyValues rows={Object.entries(data.data as object)} label="Body" />
          ) : (
            <Value value={data.data} />
          )}
        </>
      )}
      {pairs(data.cookies).length > 0 && (
        <>
          <h4>Cookies</h4>
          <KeyValues rows={pairs(data.cookies)} label="Cookies" />
        </>
      )}
      {pairs(data.headers).length > 0 && (
        <>
          <h4>Headers</h4>
          <KeyValues rows={pairs(data.headers)} label="Headers" />
        </>
      )}
      {data.env && Object.keys(data.env).length > 0 && (
        <>
          <h4>Environment</h4>
          <KeyValues rows={Object.entries(data.env)} label="Environment" />
        </>
      )}
    </EventSection>
  );
}

const CONTEXT_TITLES: Record<string, string> = {
  os: 'Operating System',
  client_os: 'Client Operating System',
  runtime: 'Runtime',
  browser: 'Browser',
  device: 'Device',
  app: 'App',
  gpu: 'GPU',
  culture: 'Culture',
  cloud_resource: 'Cloud Resource',
  trace: 'Trace',
  response: 'Response',
  state: 'State',
};

/** A context value worth a row: not null, empty text, `None` (as Python SDKs write nothing) or an empty list or object. */
function hasValue(value: unknown): boolean {
  if (value === null || value === undefined || value === '' || value === 'None') return false;
  if (Array.isArray(value)) return value.length > 0;
  return typeof value !== 'object' || Object.keys(value).length > 0;
}

/** A context's rows: byte counts (device memory and storage) read as 23.5 GiB. */
function contextRows(context: Record<string, unknown> | null | undefined): Array<[string, unknown]> {
  return Object.entries(context ?? {})
    .filter(([key, value]) => key !== 'type' && hasValue(value))
    .map(([key, value]) => [key, BYTE_CONTEXT_KEYS.has(key) && typeof value === 'number' ? formatBytes(value) : value]);
}

/** The event's contexts; one with nothing to show gets no card. */
function Contexts(props: { contexts: Record<string, Record<string, unknown>> }) {
  const entries = Object.entries(props.contexts)
    .map(([name, context]) => [name, context, contextRows(context)] as const)
    .filter(([, , rows]) => rows.length > 0);
  if (entries.length === 0) return null;
  return (
    <EventSection title="Contexts">
      <div class="context-cards">
        {entries.map(([name, context, rows]) => {
          const summary = [context?.name, context?.version].filter(Boolean).join(' ');
          return (
            <section key={name} class="context-card" aria-label={CONTEXT_TITLES[name] ?? name}>
              <h4>
                {CONTEXT_TITLES[name] ?? name}
                {summary && <span class="muted"> · {summary}</span>}
              </h4>
              <KeyValues rows={rows} />
            </section>
          );
        })}
      </div>
    </EventSection>
  );
}

interface Thread {
  id?: string | number;
  name?: string | null;
  crashed?: boolean;
  current?: boolean;
  stacktrace?: Stacktrace | null;
}

/** Everything the event carries, in Sentry's order, each part only when the event has it. */
/** A link to the search of a tag value, or its text when the search syntax cannot name the key. */
export function TagLink(props: { href: string | undefined; children: ComponentChildren }) {
  return props.href === undefined ? <span class="tag-link">{props.children}</span> : <Link href={props.href}>{props.children}</Link>;
}

export function EventDetails(props: { event: IssueEvent; tagHref: (key: string, value: string) => string | undefined }) {
  const { event } = props;
  const entries = event.entries ?? [];
  const parts: ComponentChildren[] = [];
  for (const [index, entry] of entries.entries()) {
    if (entry.type === 'exception' && entry.data?.values?.length) parts.push(<Exception key={index} values={entry.data.values} />);
    else if (entry.type === 'message') parts.push(<Message key={index} data={entry.data ?? {}} />);
    else if (entry.type === 'stacktrace' && entry.data?.frames?.length)
      parts.push(
        <EventSection key={index} title="Stack trace">
          <Frames stacktrace={entry.data} full={false} />
        </EventSection>,
      );
    else if (entry.type === 'threads')
      for (const thread of ((entry.data?.values ?? []) as Thread[]).filter((item) => item.stacktrace?.frames?.length && (item.crashed || item.current)))
        parts.push(
          <EventSection key={`${index}-${thread.id}`} title={`Thread ${thread.name ?? thread.id ?? ''}`.trim()}>
            <Frames stacktrace={thread.stacktrace!} full={false} />
          </EventSection>,
        );
    else if (entry.type === 'breadcrumbs' && entry.data?.values?.length) parts.push(<Breadcrumbs key={index} values={entry.data.values} />);
    else if (entry.type === 'request' && entry.data) parts.push(<Request key={index} data={entry.data} />);
  }
  if (!entries.some((entry) => entry.type === 'message' || entry.type === 'exception') && event.message)
    parts.unshift(<Message key="message" data={{ formatted: event.message }} />);
  const user = event.user ? Object.entries(event.user).filter(([, value]) => value !== null && value !== undefined && value !== '') : [];
  return (
    <div class="event-details">
      {event.tags.length > 0 && (
        <EventSection title="Tags">
          <ul class="tag-pills">
            {event.tags.map((tag) => (
              <li key={tag.key}>
                <TagLink href={props.tagHref(tag.key, tag.value)}>
                  <span class="tag-key">{tag.key}</span>
                  <span class="tag-value">{tag.value}</span>
                </TagLink>
              </li>
            ))}
          </ul>
        </EventSection>
      )}
      {parts}
      {user.length > 0 && (
        <EventSection title="User">
          <KeyValues rows={user.map(([key, value]) => [key === 'ip_address' ? 'IP address' : key, value])} label="User" />
        </EventSection>
      )}
      {Object.keys(event.contexts ?? {}).length > 0 && <Contexts contexts={event.contexts} />}
      {Object.keys(event.context ?? {}).length > 0 && (
        <EventSection title="Additional data">
          <KeyValues rows={Object.entries(event.context)} label="Additional data" />
        </EventSection>
      )}
      {event.sdk?.name && (
        <EventSection title="SDK">
          <KeyValues
            rows={[
              ['name', event.sdk.name],
              ['version', event.sdk.version],
            ]}
            label="SDK"
          />
        </EventSection>
      )}
    </div>
  );
}
