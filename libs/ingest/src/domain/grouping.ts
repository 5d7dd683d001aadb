import { sha256Hex } from '@faultline/kernel';
import type { NormalizedEvent, NormalizedException, NormalizedFrame } from './normalize-event';

/**
 * Decides which issue an event belongs to. The components are the human-readable reasons (kept so
 * the UI can explain a grouping); the hash is what issues are keyed by. Everything that changes
 * between deploys or occurrences (line numbers, bundle hashes, ids in messages) is left out or
 * replaced by a placeholder, so the same bug keeps one issue.
 */

export interface GroupingResult {
  /** 32 lowercase hex: the first half of the SHA-256 of the components. */
  hash: string;
  components: string[];
}

const DEFAULT_VARIABLE = /^\{\{\s*default\s*\}\}$/i;
const VARIABLE = /^\{\{\s*([a-z_.]+)\s*\}\}$/i;

export function groupingHash(event: NormalizedEvent): GroupingResult {
  const defaults = defaultComponents(event);
  const components = event.fingerprint && event.fingerprint.length > 0 ? expandFingerprint(event.fingerprint, event, defaults) : defaults;
  // JSON keeps the boundaries between components unambiguous, whatever characters they hold.
  return { hash: sha256Hex(JSON.stringify(components)).slice(0, 32), components };
}

/** What the event is grouped by when the SDK sets no fingerprint (what `{{ default }}` stands for). */
export function defaultComponents(event: NormalizedEvent): string[] {
  const fromExceptions = event.exceptions.flatMap(exceptionComponents);
  if (fromExceptions.length > 0) return fromExceptions;
  // With params, the template is the message minus its variable parts already.
  const text = event.messageTemplate ?? event.message;
  if (text && text.trim()) return [`message:${normalizeMessage(text)}`];
  return ['fallback:<unlabeled event>'];
}

function exceptionComponents(exception: NormalizedException): string[] {
  const components: string[] = [];
  if (exception.type) components.push(`type:${exception.type}`);
  const frames = exception.stacktrace?.frames ?? [];
  const inApp = frames.filter((frame) => frame.inApp === true);
  for (const frame of inApp.length > 0 ? inApp : frames) {
    const component = frameComponent(frame);
    if (component) components.push(component);
  }
  // Without a stack trace the type alone would lump unrelated errors together.
  if (components.length <= 1 && exception.value) components.push(`value:${normalizeMessage(exception.value)}`);
  return components;
}

/** Location and function only: line and column numbers move with every deploy. */
function frameComponent(frame: NormalizedFrame): string | undefined {
  const location = frame.module ? normalizePath(frame.module) : normalizeFilename(frame.filename ?? frame.absPath);
  const fn = frame.function?.trim() || '?';
  if (!location && fn === '?') return undefined;
  return `frame:${location || '?'} | ${fn}`;
}

function expandFingerprint(fingerprint: string[], event: NormalizedEvent, defaults: string[]): string[] {
  const main = event.exceptions.at(-1);
  const components: string[] = [];
  for (const entry of fingerprint) {
    if (DEFAULT_VARIABLE.test(entry.trim())) {
      components.push(...defaults);
      continue;
    }
    const variable = VARIABLE.exec(entry.trim())?.[1].toLowerCase();
    // Sentry's other fingerprint variables; an unknown one is taken literally.
    if (variable === 'transaction') components.push(event.transaction ?? '<no-transaction>');
    else if (variable === 'type' || variable === 'error.type') components.push(main?.type ?? '<no-type>');
    else if (variable === 'error.value') components.push(main?.value ?? '<no-value>');
    else if (variable === 'message') components.push(event.message ?? '<no-message>');
    else if (variable === 'level') components.push(event.level);
    else if (variable === 'logger') components.push(event.logger ?? '<no-logger>');
    else if (variable?.startsWith('tags.')) {
      const key = entry
        .trim()
        .replace(/^\{\{\s*tags\./i, '')
        .replace(/\s*\}\}$/, '');
      components.push(event.tags.find(([name]) => name === key)?.[1] ?? `<no-value-for-tag-${key}>`);
    } else components.push(entry);
  }
  return components;
}

// ---- normalisation of variable parts --------------------------------------------------------

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * A file name as it stays stable across deploys: no scheme and host (CDNs rotate), no query or
 * fragment (cache busters), and numbers, uuids, hex ids, versions and bundle hashes replaced.
 */
export function normalizeFilename(filename: string | undefined): string {
  if (!filename) return '';
  const path = filename
    .trim()
    .replace(/[?#].*$/s, '')
    .replace(/\\/g, '/')
    .replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  return normalizePath(path);
}

function normalizePath(path: string): string {
  const segments = path.split('/');
  return segments.map((segment, index) => (index === segments.length - 1 ? normalizeBasename(segment) : normalizeSegment(segment))).join('/');
}

function normalizeSegment(segment: string): string {
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(segment)) return '<uuid>';
  if (/^v?\d+(?:[._-]\d+)*$/i.test(segment)) return '<num>';
  if (isHexId(segment)) return '<hex>';
  return segment.replace(UUID, '<uuid>');
}

/** `main.3f9a1c2b.chunk.js`, `index-DiwrgTda.js`, `123.js`: the name stays, the hash goes. */
function normalizeBasename(basename: string): string {
  const withoutUuids = basename.replace(UUID, '<uuid>');
  const parts = withoutUuids.split(/([._-])/);
  // parts alternate token, separator, token...; the last token of a dotted name is its extension.
  const lastToken = parts.length - 1;
  return parts
    .map((part, index) => {
      if (index % 2 === 1) return part;
      if (/^\d+$/.test(part)) return '<num>';
      const middle = index > 0 && index < lastToken;
      return middle && isBundleHash(part) ? '<hash>' : part;
    })
    .join('');
}

function isHexId(token: string): boolean {
  return token.length >= 8 && /^[0-9a-f]+$/i.test(token) && /\d/.test(token) && /[a-f]/i.test(token);
}

function isBundleHash(token: string): boolean {
  if (token.length >= 6 && /^[0-9a-f]+$/i.test(token) && /\d/.test(token)) return true;
  if (token.length >= 8 && /^[A-Za-z0-9]+$/.test(token) && /\d/.test(token) && /[A-Za-z]/.test(token)) return true;
  // Vite/Rollup base64url hashes: 8 characters of mixed case, sometimes without digits.
  return token.length === 8 && /^[A-Za-z0-9]+$/.test(token) && /[a-z]/.test(token) && /[A-Z]/.test(token);
}

const MESSAGE_RULES: ReadonlyArray<[RegExp, string]> = [
  // Quotes only when they stand apart from words, so "can't" and "user's" are left alone.
  [/(^|[^\w])"[^"\n]*"(?=$|[^\w])/g, '$1<quoted>'],
  [/(^|[^\w])'[^'\n]*'(?=$|[^\w])/g, '$1<quoted>'],
  [/(^|[^\w])`[^`\n]*`(?=$|[^\w])/g, '$1<quoted>'],
  // URLs and addresses start only where their run of characters starts: a match tried at every
  // position inside a long run would cost the square of its length.
  [/(?<![a-z0-9+.-])[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi, '<url>'],
  [/(?<![\w.+-])[\w.+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+/gi, '<email>'],
  [UUID, '<uuid>'],
  [/\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:\s?Z|[+-]\d{2}:?\d{2})?)?\b/gi, '<date>'],
  [/\b\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?\b/g, '<time>'],
  [/\b\d{1,3}(?:\.\d{1,3}){3}\b/g, '<ip>'],
  // IPv6: hex groups with at least two colons (times were replaced just before).
  [/(?<![\w:])(?=[0-9a-f:]*[0-9a-f])[0-9a-f]{0,4}(?::[0-9a-f]{0,4}){2,7}(?![\w:])/gi, '<ip>'],
  [/\b0x[0-9a-f]+\b/gi, '<hex>'],
  [/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/gi, '<hex>'],
  [/\b\d+(?:\.\d+)?\b/g, '<num>'],
];

/** A message with its variable parts replaced, so "User 123 not found" and "User 456 not found" match. */
export function normalizeMessage(message: string): string {
  let text = message.trim().slice(0, 4096);
  for (const [pattern, replacement] of MESSAGE_RULES) text = text.replace(pattern, replacement);
  return text;
}
