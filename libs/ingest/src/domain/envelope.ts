import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw, type Zlib } from 'node:zlib';
import { normalizeEventId } from '@faultline/kernel';
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
  'profile_chunk',
  'replay_video',
  'trace_metric',
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

/**
 * The header of an envelope from the start of its decoded body (`decodeBodyPrefix`): where a
 * tunnelled envelope carries its DSN, read before anything else of the body is.
 */
export function readEnvelopeHeader(prefix: Buffer, maxHeaderBytes: number): EnvelopeHeader {
  const end = prefix.indexOf(NEWLINE);
  if (end === -1 && prefix.length >= maxHeaderBytes) throw new EnvelopeError(`envelope header is longer than ${maxHeaderBytes} bytes`);
  return parseEnvelopeHeader(prefix.subarray(0, end === -1 ? prefix.length : end));
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
  if (typeof header.event_id === 'string' && normalizeEventId(header.event_id) === undefined) {
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

/** Most encodings one body may stack (`gzip, br` is two); real clients send one. */
export const MAX_CONTENT_ENCODINGS = 2;
/** Output chunk of the decompressors: large enough that a 50 MiB body is a few hundred steps. */
const DECODER_CHUNK_BYTES = 64 * 1024;
const ZLIB_METHOD_DEFLATE = 8;

type Decoder = Transform & Zlib;
type DecoderFactory = (input: Buffer) => Decoder;

const chunked = { chunkSize: DECODER_CHUNK_BYTES };
const DECODERS: Readonly<Record<string, DecoderFactory>> = {
  gzip: () => createGunzip(chunked),
  'x-gzip': () => createGunzip(chunked),
  // HTTP "deflate" is meant to be zlib-wrapped, but many clients send raw deflate; the zlib header
  // (CM = 8, header checksum divisible by 31) tells them apart.
  deflate: (input) => (looksLikeZlib(input) ? createInflate(chunked) : createInflateRaw(chunked)),
  br: () => createBrotliDecompress(chunked),
};

/**
 * The codings of a `Content-Encoding` header in the order they were applied, `identity` left out.
 * Refuses (`unsupported_encoding`) an unknown coding or more than MAX_CONTENT_ENCODINGS of them,
 * before anything is decompressed.
 */
export function contentEncodings(header: string | null | undefined): string[] {
  const encodings = (header ?? '')
    .split(',')
    .map((encoding) => encoding.trim().toLowerCase())
    .filter((encoding) => encoding !== '' && encoding !== 'identity');
  const unknown = encodings.find((encoding) => !Object.hasOwn(DECODERS, encoding));
  if (unknown !== undefined) throw new EnvelopeError(`unsupported content encoding: ${unknown.slice(0, 50)}`, 'unsupported_encoding');
  if (encodings.length > MAX_CONTENT_ENCODINGS) {
    throw new EnvelopeError(`at most ${MAX_CONTENT_ENCODINGS} content encodings are supported, got ${encodings.length}`, 'unsupported_encoding');
  }
  return encodings;
}

/**
 * Undoes `Content-Encoding` (gzip, deflate zlib-wrapped or raw, br, identity; a list is undone in
 * reverse order). Decompression runs on zlib's thread pool, not the event loop, and every layer's
 * output is counted as it streams: past `maxDecompressedBytes` it stops at once, so a zip bomb
 * costs at most the cap.
 */
export async function decodeBody(body: Buffer, contentEncoding: string | null | undefined, maxDecompressedBytes: number): Promise<Buffer> {
  let output = body;
  for (const encoding of contentEncodings(contentEncoding).reverse()) {
    output = await decodeLayer(output, encoding, maxDecompressedBytes, 'whole');
  }
  if (output.length > maxDecompressedBytes) throw tooLarge(maxDecompressedBytes);
  return output;
}

/**
 * At most the first `maxBytes` of the decoded body, decompressing little more than that: what an
 * envelope's header line is read from before the request is authenticated. A truncated or corrupt
 * stream yields what could be decoded; `decodeBody` judges the whole later.
 */
export async function decodeBodyPrefix(body: Buffer, contentEncoding: string | null | undefined, maxBytes: number): Promise<Buffer> {
  let output = body;
  for (const encoding of contentEncodings(contentEncoding).reverse()) {
    output = await decodeLayer(output, encoding, maxBytes, 'prefix');
  }
  return output.subarray(0, maxBytes);
}

async function decodeLayer(input: Buffer, encoding: string, limit: number, mode: 'whole' | 'prefix'): Promise<Buffer> {
  try {
    try {
      return await runDecoder(DECODERS[encoding](input), input, limit, mode);
    } catch (error) {
      // Rarely a raw deflate stream starts with bytes that look like a zlib header.
      if (encoding !== 'deflate' || !looksLikeZlib(input) || error instanceof EnvelopeError) throw error;
      return await runDecoder(createInflateRaw(chunked), input, limit, mode);
    }
  } catch (error) {
    if (error instanceof EnvelopeError) throw error;
    throw new EnvelopeError(`${encoding} body is corrupt: ${describeZlibError(error)}`);
  }
}

/**
 * Feeds `input` through `decoder`, collecting its output up to `limit` bytes. Past the limit the
 * decoder is destroyed, which stops zlib after the chunk in hand: `whole` then refuses the body,
 * `prefix` keeps what it has. `prefix` also flushes instead of finishing, so a stream cut short
 * (the prefix of an outer layer) is no error.
 */
function runDecoder(decoder: Decoder, input: Buffer, limit: number, mode: 'whole' | 'prefix'): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const collected = () => Buffer.concat(chunks, length);
    decoder.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
      if (length <= limit) return;
      decoder.destroy();
      if (mode === 'prefix') resolve(collected().subarray(0, limit));
      else reject(tooLarge(limit));
    });
    decoder.on('error', reject);
    if (mode === 'whole') {
      decoder.on('end', () => resolve(collected()));
      decoder.end(input);
    } else {
      decoder.write(input);
      decoder.flush(() => {
        resolve(collected());
        decoder.destroy();
      });
    }
  });
}

const OPENING_BRACE = 0x7b;

/**
 * The legacy store endpoint's body after `Content-Encoding`: JSON, or, as old SDKs (raven) send it
 * and Relay accepts, base64 of the JSON or of its zlib compression.
 */
export async function decodeStoreBody(body: Buffer, maxDecompressedBytes: number): Promise<Buffer> {
  const text = body.toString('latin1').trim();
  if (text.length === 0 || text.charCodeAt(0) === OPENING_BRACE) return body;
  const decoded = Buffer.from(text, 'base64');
  if (!looksLikeZlib(decoded)) return decoded.length > 0 ? decoded : body;
  try {
    return await runDecoder(createInflate(chunked), decoded, maxDecompressedBytes, 'whole');
  } catch (error) {
    if (error instanceof EnvelopeError) throw error;
    throw new EnvelopeError(`base64 zlib body is corrupt: ${describeZlibError(error)}`);
  }
}

function looksLikeZlib(input: Buffer): boolean {
  return input.length >= 2 && (input[0] & 0x0f) === ZLIB_METHOD_DEFLATE && input[0] >> 4 <= 7 && ((input[0] << 8) | input[1]) % 31 === 0;
}

function tooLarge(limit: number): EnvelopeError {
  return new EnvelopeError(`decompressed body exceeds the limit of ${limit} bytes`, 'too_large');
}

function describeZlibError(error: unknown): string {
  const message = typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : undefined;
  return typeof message === 'string' && message ? message : 'decompression failed';
}
