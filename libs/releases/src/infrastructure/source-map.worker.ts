import { parentPort, workerData } from 'node:worker_threads';
import { LRUCache } from 'lru-cache';
import { type OriginalPosition, ParsedSourceMap, SourceMapRefused } from '../domain/symbolicate-frames';

/**
 * The thread that parses source maps and answers positions through them, under the heap limit
 * its pool gave it: a map that would blow up ends this thread, never the process. Parsed maps are
 * kept here, weighed by what they hold once decoded.
 */
export interface SourceMapWorkerSettings {
  cacheBytes: number;
  /** What the maps parsed for one request may decode to, together. */
  maxDecodedBytes: number;
}

export interface SourceMapWorkerRequest {
  id: number;
  /** The maps the positions go through, by cache key. */
  maps: string[];
  /** The maps this thread said it lacks, read for it: null when gone or over the event's bytes. */
  contents?: Record<string, Uint8Array | null>;
  /** Each position as [index in maps, 1-based line, 0-based column]. */
  positions: Array<[number, number, number]>;
}

export type SourceMapWorkerReply =
  { id: number; missing: string[] } | { id: number; invalid: boolean[]; positions: Array<OriginalPosition | null>; refused: string[] };

/** What a refused map weighs in the cache: it is remembered so it is never read again. */
const REFUSED_BYTES = 64;
const REFUSED = Symbol('refused');
/** lru-cache weighs entries in whole, positive units. */
const sizeOf = (bytes: number): number => Math.max(1, Math.ceil(bytes));

export function answer(
  cache: LRUCache<string, ParsedSourceMap | typeof REFUSED>,
  settings: SourceMapWorkerSettings,
  request: SourceMapWorkerRequest,
): SourceMapWorkerReply {
  const found = request.maps.map((key) => cache.get(key));
  const missing = request.maps.filter((key, index) => found[index] === undefined && request.contents?.[key] === undefined);
  if (missing.length > 0) return { id: request.id, missing };
  let budget = settings.maxDecodedBytes;
  const refused: string[] = [];
  const maps = request.maps.map((key, index): ParsedSourceMap | null => {
    const cached = found[index];
    if (cached !== undefined) return cached === REFUSED ? null : cached;
    const content = request.contents?.[key];
    if (!content) return null;
    try {
      const map = ParsedSourceMap.parse(Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString('utf8'), budget);
      budget -= map.bytes;
      cache.set(key, map, { size: sizeOf(map.bytes) });
      return map;
    } catch (error) {
      if (!(error instanceof SourceMapRefused)) throw error;
      // Refused on its own merits it stays refused; refused for what others of the event took, it may fit another time.
      if (budget === settings.maxDecodedBytes) cache.set(key, REFUSED, { size: REFUSED_BYTES });
      refused.push(`${key}: ${error.message}`);
      return null;
    }
  });
  const positions = request.positions.map(([index, line, column]) => maps[index]?.originalPosition(line, column) ?? null);
  // Showing sources splits their lines: the maps weigh more than when parsed.
  maps.forEach((map, index) => map && cache.set(request.maps[index], map, { size: sizeOf(map.bytes) }));
  return { id: request.id, invalid: maps.map((map) => map === null), positions, refused };
}

/** Marks the thread's data, so importing this file anywhere else (a test, a thread of a test runner) starts nothing. */
export const SOURCE_MAP_WORKER = 'faultline-source-map-worker';
/** What the thread says once its code is loaded. */
export const SOURCE_MAP_WORKER_READY = 'ready';

if (parentPort && (workerData as { role?: unknown } | null)?.role === SOURCE_MAP_WORKER) {
  const port = parentPort;
  const settings = workerData as SourceMapWorkerSettings;
  // lru-cache wants a positive bound: a bound of 0 bytes keeps nothing, as 1 byte does.
  const cache = new LRUCache<string, ParsedSourceMap | typeof REFUSED>({ maxSize: Math.max(1, settings.cacheBytes) });
  port.on('message', (request: SourceMapWorkerRequest) => port.postMessage(answer(cache, settings, request)));
  port.postMessage(SOURCE_MAP_WORKER_READY);
}
