import { normalizeEventId } from '@faultline/kernel';
import { attachmentItem, type FormEntry, type FormFile, MAX_FORM_FIELDS } from './attachment-upload';
import type { Envelope, EnvelopeItem } from './envelope';
import { EnvelopeError } from './envelope-error';

/**
 * Sentry's minidump endpoint (`POST /api/{project}/minidump/`, Breakpad and Crashpad uploads):
 * a multipart form with the dump in `upload_file_minidump`, event fields in a `sentry` JSON field
 * or in `sentry[...]` fields, any other file kept as an attachment. It becomes an envelope: a
 * native event (nothing is symbolicated) and the dump as its `event.minidump` attachment.
 */

export const MINIDUMP_FIELD = 'upload_file_minidump';

export const MINIDUMP_LIMITS = {
  maxFields: MAX_FORM_FIELDS,
  /** Brackets in one `sentry[a][b]…` field name. */
  maxFieldDepth: 8,
  /** Streams read from the dump's directory to find its crash reason. */
  maxStreams: 1000,
} as const;

/** The dump's signature, `MDMP` as a little-endian uint32 (0x504d444d). */
const MDMP = 0x504d444d;
const EXCEPTION_STREAM = 6;
const SYSTEM_INFO_STREAM = 7;

/** The upload as an envelope; `newEventId` is used when the fields name no valid event id. */
export function minidumpEnvelope(entries: readonly FormEntry[], newEventId: string): Envelope {
  if (entries.length > MINIDUMP_LIMITS.maxFields) throw new EnvelopeError(`the form has more than ${MINIDUMP_LIMITS.maxFields} fields`, 'too_large');
  const dump = entries.find(([name, value]) => name === MINIDUMP_FIELD && typeof value !== 'string')?.[1] as FormFile | undefined;
  if (!dump) throw new EnvelopeError(`the form has no ${MINIDUMP_FIELD} file`);
  if (dump.data.length < 32 || dump.data.readUInt32LE(0) !== MDMP) throw new EnvelopeError(`${MINIDUMP_FIELD} is not a minidump (no MDMP signature)`);

  let event: Record<string, unknown> = {};
  const extra: Record<string, string> = {};
  const attachments: EnvelopeItem[] = [];
  for (const [name, value] of entries) {
    if (typeof value !== 'string') {
      if (value !== dump) attachments.push(attachmentItem(value, 'event.attachment'));
    } else if (name === 'sentry') {
      event = { ...event, ...sentryJson(value) };
    } else if (name.startsWith('sentry[')) {
      setPath(event, bracketPath(name), value);
    } else {
      extra[name] = value;
    }
  }
  const eventId = normalizeEventId(event.event_id) ?? newEventId;
  const reason = readCrashReason(dump.data);
  const payload: Record<string, unknown> = {
    level: 'fatal',
    ...event,
    event_id: eventId,
    platform: 'native',
    extra: { ...(isObject(event.extra) ? event.extra : {}), ...extra },
  };
  // The SDK's own exception wins; otherwise the dump's crash reason, as Sentry shows it unsymbolicated.
  if (!isObject(event.exception)) {
    payload.exception = {
      values: [
        {
          type: reason?.name ?? 'Minidump',
          value: reason ? `Fatal Error: ${reason.name}` : 'Fatal Error: unknown crash reason',
          mechanism: { type: 'minidump', handled: false, synthetic: true },
        },
      ],
    };
  }
  if (reason?.os && !isObject(isObject(event.contexts) ? event.contexts.os : undefined)) {
    payload.contexts = { ...(isObject(event.contexts) ? event.contexts : {}), os: { name: reason.os } };
  }
  const json = Buffer.from(JSON.stringify(payload));
  return {
    header: { event_id: eventId },
    items: [{ type: 'event', header: { type: 'event', length: json.length }, payload: json }, attachmentItem(dump, 'event.minidump'), ...attachments],
  };
}

/** The crash reason a dump records (its exception stream's code, named for its operating system), or null without one. */
export function readCrashReason(dump: Buffer): { name: string; os?: string } | null {
  try {
    const streams = Math.min(dump.readUInt32LE(8), MINIDUMP_LIMITS.maxStreams);
    const directory = dump.readUInt32LE(12);
    let code: number | undefined;
    let platform: number | undefined;
    for (let index = 0; index < streams; index++) {
      const entry = directory + index * 12;
      const type = dump.readUInt32LE(entry);
      const rva = dump.readUInt32LE(entry + 8);
      // MINIDUMP_EXCEPTION_STREAM: thread id, alignment, then the exception record's code.
      if (type === EXCEPTION_STREAM) code = dump.readUInt32LE(rva + 8);
      // MINIDUMP_SYSTEM_INFO: the platform id after the architecture, level, revision, counts and version.
      if (type === SYSTEM_INFO_STREAM) platform = dump.readUInt32LE(rva + 20);
    }
    if (code === undefined) return null;
    const os = platform === undefined ? undefined : PLATFORMS[platform];
    return { name: crashName(code, os), ...(os ? { os } : {}) };
  } catch {
    // A dump cut short: no reason to tell.
    return null;
  }
}

const PLATFORMS: Readonly<Record<number, string>> = { 2: 'Windows', 0x8101: 'macOS', 0x8102: 'iOS', 0x8201: 'Linux', 0x8203: 'Android' };

const WINDOWS_CODES: Readonly<Record<number, string>> = {
  0xc0000005: 'EXCEPTION_ACCESS_VIOLATION',
  0xc000001d: 'EXCEPTION_ILLEGAL_INSTRUCTION',
  0xc0000094: 'EXCEPTION_INT_DIVIDE_BY_ZERO',
  0xc00000fd: 'EXCEPTION_STACK_OVERFLOW',
  0xc0000409: 'EXCEPTION_STACK_BUFFER_OVERRUN',
  0x80000003: 'EXCEPTION_BREAKPOINT',
  0xe06d7363: 'Microsoft C++ Exception',
};
const SIGNALS: Readonly<Record<number, string>> = { 4: 'SIGILL', 5: 'SIGTRAP', 6: 'SIGABRT', 7: 'SIGBUS', 8: 'SIGFPE', 11: 'SIGSEGV' };
const MACH_EXCEPTIONS: Readonly<Record<number, string>> = {
  1: 'EXC_BAD_ACCESS',
  2: 'EXC_BAD_INSTRUCTION',
  3: 'EXC_ARITHMETIC',
  5: 'EXC_SOFTWARE',
  6: 'EXC_BREAKPOINT',
  10: 'EXC_CRASH',
};

function crashName(code: number, os: string | undefined): string {
  const known = os === 'macOS' || os === 'iOS' ? MACH_EXCEPTIONS[code] : os === 'Linux' || os === 'Android' ? SIGNALS[code] : WINDOWS_CODES[code];
  return known ?? `0x${code.toString(16).padStart(8, '0')}`;
}

function sentryJson(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new EnvelopeError('the sentry field is not valid JSON');
  }
  if (!isObject(value)) throw new EnvelopeError('the sentry field must be a JSON object');
  return value;
}

/** `sentry[tags][build]` → ['tags', 'build']. */
function bracketPath(name: string): string[] {
  const match = /^sentry((?:\[[^[\]]*\])+)$/.exec(name);
  if (!match) throw new EnvelopeError(`form field ${name.slice(0, 100)} is not of the form sentry[key][key]`);
  const path = match[1].slice(1, -1).split('][');
  if (path.length > MINIDUMP_LIMITS.maxFieldDepth || path.some((key) => key === '' || key === '__proto__')) {
    throw new EnvelopeError(`form field ${name.slice(0, 100)} nests too deep or names no key`);
  }
  return path;
}

function setPath(target: Record<string, unknown>, path: readonly string[], value: string): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    if (!isObject(node[key])) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1]] = value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
