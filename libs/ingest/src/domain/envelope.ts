import {
  brotliDecompressSync,
  gunzipSync,
  inflateRawSync,
  inflateSync,
  type BrotliOptions,
  type ZlibOptions,
} from 'node:zlib';
import { EnvelopeError } from './envelope-error';

/**
 * Sentry's envelope format (https://develop.sentry.dev/sdk/envelopes/): a JSON header line, then
 * items, each a JSON item header line and a payload. With `length` in the item header the payload
 * is exactly that many bytes (it may hold newlines or binary data), else it runs to the next `\n`.
 */

export const ENVELOPE_ITEM_TYPES = [
  'event',
  'transaction',
  'session',
  'sessions',
  'attachment',
  'client_report',
  'check_in',
  'user_report',
  'profile',
  'replay_event',
  'replay_recording',
  'statsd',
  'span',
  'log',
  'feedback',
] as const;

export type KnownEnvelopeItemType = (typeof ENVELOPE_ITEM_TYPES)[number];
/** Unknown types are kept as `other` (newer SDKs add types); the header keeps the original name. */
export type EnvelopeItemType = KnownEnvelopeItemType | 'other';

export interface EnvelopeHeader {
  event_id?: string;
  dsn?: string;
  sent_at?: string;
  sdk?: { name?: string; version?: string; [key: string]: unknown };
  [key: string]: unknown;
}

export interface EnvelopeItemHeader {
  /** The type exactly as sent, also for items classified as `other`. */
  type: string;
  length?: number;
  content_type?: string;
  filename?: string;
  attachment_type?: string;
  [key: string]: unknown;
}

export interface EnvelopeItem {
  type: EnvelopeItemType;
  header: EnvelopeItemHeader;
  payload: Buffer;
}

export interface Envelope {
  header: EnvelopeHeader;
  items: EnvelopeItem[];
}

export interface EnvelopeLimits {
  /** Largest envelope accepted, after decompression. */
  maxEnvelopeBytes: number;
  /** Most items in one envelope. */
  maxItems: number;
  /** Largest payload of a single item. */
  maxItemBytes: number;
}

/** Defaults in the spirit of Relay's (its event limit is 1 MiB, attachments far larger). */
export const DEFAULT_ENVELOPE_LIMITS: Readonly<EnvelopeLimits> = Object.freeze({
  maxEnvelopeBytes: 20 * 1024 * 1024,
  maxItems: 100,
  maxItemBytes: 10 * 1024 * 1024,
});

const NEWLINE = 0x0a;
const KNOWN_TYPES: ReadonlySet<string> = new Set(ENVELOPE_ITEM_TYPES);
const EVENT_ID = /^(?:[0-9a-fA-F]{32}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;

/** Items are numbered from 1 in messages, as a person counts them. */
export function parseEnvelope(body: Buffer, limits: EnvelopeLimits): Envelope {
  if (body.length > limits.maxEnvelopeBytes) {
    throw new EnvelopeError(`envelope is ${body.length} bytes, over the limit of ${limits.maxEnvelopeBytes} bytes`, 'too_large');
  }
  if (body.length === 0) throw new EnvelopeError('envelope is empty');

  const first = readLine(body, 0);
  const header = parseEnvelopeHeader(body.subarray(0, first.end));
  const items: EnvelopeItem[] = [];
  let position = first.next;

  while (position < body.length) {
    // Blank lines between items are tolerated (some SDKs and proxies add them).
    if (body[position] === NEWLINE) {
      position += 1;
      continue;
    }
    if (body[position] === 0x0d && body[position + 1] === NEWLINE) {
      position += 2;
      continue;
    }

    const number = items.length + 1;
    if (number > limits.maxItems) {
      throw new EnvelopeError(`envelope has more than ${limits.maxItems} items`, 'too_large');
    }

    const headerLine = readLine(body, position);
    const itemHeader = parseItemHeader(body.subarray(position, headerLine.end), number);
    const payloadStart = headerLine.next;
    const remaining = body.length - payloadStart;
    let payload: Buffer;

    if (itemHeader.length !== undefined) {
      if (itemHeader.length > remaining) {
        throw new EnvelopeError(`item ${number}: length ${itemHeader.length} exceeds the remaining ${remaining} bytes`);
      }
      checkItemSize(itemHeader.length, number, limits);
      payload = body.subarray(payloadStart, payloadStart + itemHeader.length);
      position = payloadStart + itemHeader.length;
      // The newline after an explicit-length payload is optional.
      if (body[position] === NEWLINE) position += 1;
    } else {
      const line = readLine(body, payloadStart);
      checkItemSize(line.end - payloadStart, number, limits);
      payload = body.subarray(payloadStart, line.end);
      position = line.next;
    }

    const type: EnvelopeItemType = KNOWN_TYPES.has(itemHeader.type) ? (itemHeader.type as KnownEnvelopeItemType) : 'other';
    items.push({ type, header: itemHeader, payload });
  }

  return { header, items };
}

/** The JSON payload of an item (event, transaction, session...), with a precise error otherwise. */
export function parseItemJson(item: EnvelopeItem, number: number): unknown {
  try {
    return JSON.parse(item.payload.toString('utf8'));
  } catch {
    throw new EnvelopeError(`item ${number}: ${item.header.type} payload is not valid JSON`);
  }
}

function readLine(body: Buffer, start: number): { end: number; next: number } {
  const newline = start < body.length ? body.indexOf(NEWLINE, start) : -1;
  return newline === -1 ? { end: body.length, next: body.length } : { end: newline, next: newline + 1 };
}

function parseJsonObject(bytes: Buffer): Record<string, unknown> | 'invalid' | 'not_object' {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    return 'invalid';
  }
  return isObject(value) ? value : 'not_object';
}

function parseEnvelopeHeader(bytes: Buffer): EnvelopeHeader {
  if (bytes.toString('utf8').trim() === '') throw new EnvelopeError('envelope header is missing (the first line is empty)');
  const header = parseJsonObject(bytes);
  if (header === 'invalid') throw new EnvelopeError('envelope header is not valid JSON');
  if (header === 'not_object') throw new EnvelopeError('envelope header must be a JSON object');

  for (const field of ['event_id', 'dsn', 'sent_at'] as const) {
    if (header[field] === null) delete header[field];
    else if (header[field] !== undefined && typeof header[field] !== 'string') {
      throw new EnvelopeError(`envelope header: ${field} must be a string`);
    }
  }
  if (typeof header.event_id === 'string' && !EVENT_ID.test(header.event_id)) {
    throw new EnvelopeError('envelope header: event_id must be a 32-character hex id or a uuid');
  }
  if (header.sdk === null) delete header.sdk;
  else if (header.sdk !== undefined && !isObject(header.sdk)) throw new EnvelopeError('envelope header: sdk must be an object');
  return header as EnvelopeHeader;
}

function parseItemHeader(bytes: Buffer, number: number): EnvelopeItemHeader {
  const header = parseJsonObject(bytes);
  if (header === 'invalid') throw new EnvelopeError(`item ${number}: header is not valid JSON`);
  if (header === 'not_object') throw new EnvelopeError(`item ${number}: header must be a JSON object`);
  if (header.type === undefined || header.type === null) throw new EnvelopeError(`item ${number}: header has no type`);
  if (typeof header.type !== 'string' || header.type.length === 0) {
    throw new EnvelopeError(`item ${number}: type must be a non-empty string`);
  }
  if (header.length === null) delete header.length;
  if (header.length !== undefined && !(typeof header.length === 'number' && Number.isSafeInteger(header.length) && header.length >= 0)) {
    throw new EnvelopeError(`item ${number}: length must be a non-negative integer`);
  }
  for (const field of ['content_type', 'filename', 'attachment_type'] as const) {
    if (header[field] === null) delete header[field];
    else if (header[field] !== undefined && typeof header[field] !== 'string') {
      throw new EnvelopeError(`item ${number}: ${field} must be a string`);
    }
  }
  return header as EnvelopeItemHeader;
}

function checkItemSize(size: number, number: number, limits: EnvelopeLimits): void {
  if (size > limits.maxItemBytes) {
    throw new EnvelopeError(`item ${number}: payload of ${size} bytes exceeds the item limit of ${limits.maxItemBytes} bytes`, 'too_large');
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ---- Content-Encoding ----------------------------------------------------------------------

const ZLIB_METHOD_DEFLATE = 8;

type Decoder = (input: Buffer, maxOutputLength: number) => Buffer;

const inflateEither: Decoder = (input, maxOutputLength) => {
  // HTTP "deflate" is meant to be zlib-wrapped, but many clients send raw deflate; the zlib header
  // (CM = 8, header checksum divisible by 31) tells them apart, with raw as the fallback for the
  // rare raw stream whose first bytes happen to look like a zlib header.
  const options: ZlibOptions = { maxOutputLength };
  if (looksLikeZlib(input)) {
    try {
      return inflateSync(input, options);
    } catch (error) {
      if (isTooLarge(error)) throw error;
    }
  }
  return inflateRawSync(input, options);
};

const DECODERS: Readonly<Record<string, Decoder>> = {
  gzip: (input, maxOutputLength) => gunzipSync(input, { maxOutputLength }),
  'x-gzip': (input, maxOutputLength) => gunzipSync(input, { maxOutputLength }),
  deflate: inflateEither,
  br: (input, maxOutputLength) => brotliDecompressSync(input, { maxOutputLength } satisfies BrotliOptions),
};

/**
 * Undoes `Content-Encoding` (gzip, deflate zlib-wrapped or raw, br, identity; a list is undone in
 * reverse order). Output is capped with zlib's `maxOutputLength`, which stops inflating as soon as
 * the cap is passed, so a zip bomb costs at most the cap in memory.
 */
export function decodeBody(body: Buffer, contentEncoding: string | null | undefined, maxDecompressedBytes: number): Buffer {
  const encodings = (contentEncoding ?? '')
    .split(',')
    .map((encoding) => encoding.trim().toLowerCase())
    .filter((encoding) => encoding !== '' && encoding !== 'identity');

  let output = body;
  for (const encoding of encodings.reverse()) {
    const decode = DECODERS[encoding];
    if (!decode) throw new EnvelopeError(`unsupported content encoding: ${encoding.slice(0, 50)}`, 'unsupported_encoding');
    try {
      // zlib refuses a cap below 1; the check after the call covers a cap of 0.
      output = decode(output, Math.max(1, maxDecompressedBytes));
    } catch (error) {
      if (isTooLarge(error)) throw tooLarge(maxDecompressedBytes);
      throw new EnvelopeError(`${encoding} body is corrupt: ${describeZlibError(error)}`);
    }
  }
  if (output.length > maxDecompressedBytes) throw tooLarge(maxDecompressedBytes);
  return output;
}

const OPENING_BRACE = 0x7b;

/**
 * The legacy store endpoint's body after `Content-Encoding`: JSON, or, as old SDKs (raven) send it
 * and Relay accepts, base64 of the JSON or of its zlib compression.
 */
export function decodeStoreBody(body: Buffer, maxDecompressedBytes: number): Buffer {
  const text = body.toString('latin1').trim();
  if (text.length === 0 || text.charCodeAt(0) === OPENING_BRACE) return body;
  const decoded = Buffer.from(text, 'base64');
  if (!looksLikeZlib(decoded)) return decoded.length > 0 ? decoded : body;
  try {
    return inflateSync(decoded, { maxOutputLength: Math.max(1, maxDecompressedBytes) });
  } catch (error) {
    if (isTooLarge(error)) throw tooLarge(maxDecompressedBytes);
    throw new EnvelopeError(`base64 zlib body is corrupt: ${describeZlibError(error)}`);
  }
}

function looksLikeZlib(input: Buffer): boolean {
  return input.length >= 2 && (input[0] & 0x0f) === ZLIB_METHOD_DEFLATE && (input[0] >> 4) <= 7 && ((input[0] << 8) | input[1]) % 31 === 0;
}

// Duck-typed: zlib's errors come from Node's own realm, where `instanceof` checks against this
// realm's Error classes can fail (Jest runs tests in a separate VM context).
function isTooLarge(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE';
}

function tooLarge(limit: number): EnvelopeError {
  return new EnvelopeError(`decompressed body exceeds the limit of ${limit} bytes`, 'too_large');
}

function describeZlibError(error: unknown): string {
  const message = typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : undefined;
  return typeof message === 'string' && message ? message : 'decompression failed';
}
