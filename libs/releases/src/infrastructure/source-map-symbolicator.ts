import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { CLOCK, type Clock } from '@faultline/kernel';
import type { Sql } from '@faultline/platform';
import { SourceMapSymbolicator, type SymbolicationRequest, type SymbolicationResult } from '../contracts/source-map-symbolicator';
import { canonicalDebugId } from '../domain/bundle-manifest';
import { candidateUrls, resolveSourceMapUrl } from '../domain/source-map-urls';
import {
  type FrameMap,
  framePosition,
  type JsFrame,
  type OriginalPosition,
  type ProcessingError,
  processingError,
  symbolicateFrames,
} from '../domain/symbolicate-frames';
import { type ArtifactMatch, ArtifactsRepository } from './artifacts.repository';
import { RELEASES_CONFIG, type ReleasesConfig } from './releases-config';
import { SourceMapWorkers } from './source-map-workers';

/** Files of one event looked up and mapped; the frames of others stay as sent. */
const MAX_FILES_PER_EVENT = 50;
/** Lookups remembered (found or not), organizations and releases known to have artifacts or not. */
const MAX_REMEMBERED_LOOKUPS = 10_000;
/**
 * How long a process believes a lookup found nothing (an organization or release without
 * artifacts, a debug ID or URL without a map) before asking again: an upload made after the first
 * events is used within that time by every process. What was found is kept.
 */
const NOT_FOUND_TTL_MS = 30_000;
/** A source map thread that works longer than this on one event is stopped (within the budgets, parsing takes seconds). */
const WORKER_TIMEOUT_MS = 60_000;

interface Located {
  checksum: string;
  url: string;
}

/**
 * Resolves JavaScript frames through uploaded source maps, as Sentry does: by the debug ID the
 * SDK reports for the frame's file first, then by the event's release and dist and the file's URL.
 * An event costs a few batched queries at most, none for an organization that never uploaded
 * anything; the maps are parsed and kept in worker threads with a bounded heap (`SourceMapWorkers`).
 */
@Injectable()
export class SourceMapSymbolicatorService extends SourceMapSymbolicator implements OnModuleDestroy {
  private readonly workers: SourceMapWorkers;
  /** Where a debug ID's or a file's map is; a miss is kept for a short while. */
  private readonly lookups: LRUCache<string, { located: Located | null }>;
  /** Whether an organization or a release has artifacts (one read at a time each); a no is kept for a short while. */
  private readonly answers: LRUCache<string, boolean, () => Promise<boolean>>;
  private readonly maxReadBytesPerEvent: number;

  constructor(
    private readonly artifacts: ArtifactsRepository,
    @Inject(RELEASES_CONFIG) config: ReleasesConfig,
    @Inject(CLOCK) clock: Clock,
  ) {
    super();
    const limits = config.sourceMaps;
    this.workers = new SourceMapWorkers({
      workers: limits.workers,
      heapMb: limits.workerHeapMb,
      cacheBytes: limits.cacheBytes,
      maxDecodedBytes: limits.maxDecodedBytes,
      timeoutMs: WORKER_TIMEOUT_MS,
    });
    this.maxReadBytesPerEvent = limits.maxReadBytesPerEvent;
    // Time is the injected clock's, read afresh each time, so a test can move it.
    const timing = { ttl: NOT_FOUND_TTL_MS, perf: { now: () => clock.now().getTime() }, ttlResolution: 0 };
    this.lookups = new LRUCache({ max: MAX_REMEMBERED_LOOKUPS, ...timing });
    this.answers = new LRUCache({
      max: MAX_REMEMBERED_LOOKUPS,
      ...timing,
      fetchMethod: async (_key, _stale, { context: ask, options }) => {
        const has = await ask();
        if (has) options.ttl = 0;
        return has;
      },
      ignoreFetchAbort: true,
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.workers.stop();
  }

  async symbolicate<F extends JsFrame>(sql: Sql, request: SymbolicationRequest<F>): Promise<SymbolicationResult<F>> {
    const files = new Set<string>();
    for (const frames of request.stacktraces) {
      for (const frame of frames) if (isMappable(frame) && files.size < MAX_FILES_PER_EVENT) files.add(fileOf(frame) as string);
    }
    const debugIds = new Map<string, string>();
    for (const image of request.debugImages ?? []) {
      if (image.type !== 'sourcemap' || typeof image.code_file !== 'string' || !files.has(image.code_file)) continue;
      const debugId = canonicalDebugId(image.debug_id);
      if (debugId) debugIds.set(image.code_file, debugId);
    }
    const unmapped = { stacktraces: request.stacktraces.map(() => null), errors: [] };
    if (files.size === 0 || (debugIds.size === 0 && !request.release)) return unmapped;

    const errors: ProcessingError[] = [];
    const located = await this.locate(sql, request, files, debugIds);
    for (const [file, found] of located) if (!found) errors.push(processingError('js_no_source', { url: file }));
    const found = await this.resolve(sql, request, located);
    const stacktraces = request.stacktraces.map((frames) => {
      const result = symbolicateFrames(frames, (frame) => (isMappable(frame) ? found.get(fileOf(frame) as string) : undefined));
      errors.push(...result.errors);
      return result.frames;
    });
    return { stacktraces, errors: uniqueErrors(errors) };
  }

  /**
   * Where each file's map is (null: looked up, none), for the files that are looked up: those with
   * a debug ID, and the others when the release has artifacts. Every kind of lookup is one query
   * for all the files of the event that are not remembered.
   */
  private async locate(
    sql: Sql,
    request: SymbolicationRequest<JsFrame>,
    files: ReadonlySet<string>,
    debugIds: ReadonlyMap<string, string>,
  ): Promise<Map<string, Located | null>> {
    const located = new Map<string, Located | null>();
    if (!(await this.remembered(`org\u0000${request.organizationId}`, () => this.artifacts.organizationHasArtifacts(sql, request.organizationId)))) {
      for (const file of debugIds.keys()) located.set(file, null);
      return located;
    }
    const scope = [request.organizationId, request.projectId];
    const byDebugId = await this.byDebugIds(sql, request, [...new Set(debugIds.values())]);
    for (const [file, debugId] of debugIds) located.set(file, byDebugId.get(debugId) ?? null);

    const release = request.release;
    const rest = [...files].filter((file) => !debugIds.has(file));
    if (!release || rest.length === 0) return located;
    const dist = request.dist ?? null;
    const releaseKey = ['release', ...scope, release, dist ?? ''].join('\u0000');
    if (!(await this.remembered(releaseKey, () => this.artifacts.releaseHasArtifacts(sql, request.organizationId, request.projectId, release, dist)))) {
      return located;
    }
    const keyOf = (file: string) => `${releaseKey}\u0000${file}`;
    const asked: string[] = [];
    for (const file of rest) {
      const remembered = this.recall(keyOf(file));
      if (remembered === undefined) asked.push(file);
      else located.set(file, remembered);
    }
    if (asked.length === 0) return located;
    for (const [file, found] of await this.byRelease(sql, request, asked)) {
      this.remember(keyOf(file), found);
      located.set(file, found);
    }
    return located;
  }

  /** The maps of these debug IDs: the remembered ones, then the others in one query. */
  private async byDebugIds(sql: Sql, request: SymbolicationRequest<JsFrame>, debugIds: readonly string[]): Promise<Map<string, Located | null>> {
    const keyOf = (debugId: string) => ['debug', request.organizationId, request.projectId, debugId].join('\u0000');
    const found = new Map<string, Located | null>();
    const asked: string[] = [];
    for (const debugId of debugIds) {
      const remembered = this.recall(keyOf(debugId));
      if (remembered === undefined) asked.push(debugId);
      else found.set(debugId, remembered);
    }
    if (asked.length === 0) return found;
    const rows = new Map<string, ArtifactMatch>();
    for (const row of await this.artifacts.sourceMapsByDebugIds(sql, request.organizationId, request.projectId, asked)) rows.set(row.debug_id as string, row);
    for (const debugId of asked) {
      const row = rows.get(debugId);
      const map = row ? { checksum: row.file_checksum, url: row.url ?? debugId } : null;
      this.remember(keyOf(debugId), map);
      found.set(debugId, map);
    }
    return found;
  }

  /**
   * Each file's minified artifact under one of its candidate URLs, then the map it names (by debug
   * ID or URL), else `<file>.map`: one query for all the files, and one for the maps they name.
   */
  private async byRelease(sql: Sql, request: SymbolicationRequest<JsFrame>, files: readonly string[]): Promise<Map<string, Located | null>> {
    const release = request.release as string;
    const dist = request.dist ?? null;
    const candidates = new Map(files.map((file) => [file, candidateUrls(file)]));
    const urls = [...candidates.values()].flatMap((list) => [...list, ...list.map((url) => `${url}.map`)]);
    const matches = await this.artifacts.byReleaseUrls(sql, request.organizationId, request.projectId, release, dist, [...new Set(urls)]);
    const first = (rows: ReadonlyArray<ArtifactMatch & { type: string }>, types: readonly string[], wanted: readonly string[]) => {
      for (const url of wanted) {
        const match = rows.find((m) => m.url === url && types.includes(m.type));
        if (match) return match;
      }
      return undefined;
    };
    const minified = new Map(files.map((file) => [file, first(matches, ['minified_source', 'source'], candidates.get(file) as string[])]));
    const named = [...minified.values()];
    const byDebugId = await this.byDebugIds(sql, request, [...new Set(named.flatMap((m) => (m?.debug_id ? [m.debug_id] : [])))]);
    const mapUrls = named.flatMap((m) => (m?.url && m.sourcemap ? [resolveSourceMapUrl(m.url, m.sourcemap)] : []));
    const byUrl =
      mapUrls.length > 0 ? await this.artifacts.byReleaseUrls(sql, request.organizationId, request.projectId, release, dist, [...new Set(mapUrls)]) : [];
    const located = new Map<string, Located | null>();
    for (const file of files) {
      const artifact = minified.get(file);
      const viaDebugId = artifact?.debug_id ? byDebugId.get(artifact.debug_id) : null;
      const mapUrl = artifact?.url && artifact.sourcemap ? resolveSourceMapUrl(artifact.url, artifact.sourcemap) : null;
      const viaHeader = mapUrl ? byUrl.find((m) => m.url === mapUrl) : undefined;
      const beside = first(
        matches,
        ['source_map'],
        (candidates.get(file) as string[]).map((url) => `${url}.map`),
      );
      if (viaDebugId) located.set(file, viaDebugId);
      else if (viaHeader && mapUrl) located.set(file, { checksum: viaHeader.file_checksum, url: mapUrl });
      else located.set(file, beside ? { checksum: beside.file_checksum, url: beside.url ?? file } : null);
    }
    return located;
  }

  /** Each located file's map, resolved in a source map thread for every frame of the event at once. */
  private async resolve(sql: Sql, request: SymbolicationRequest<JsFrame>, located: ReadonlyMap<string, Located | null>): Promise<Map<string, FrameMap>> {
    const keys: string[] = [];
    const indexOf = new Map<string, number>();
    for (const found of located.values()) {
      if (!found || indexOf.has(found.checksum)) continue;
      indexOf.set(found.checksum, keys.length);
      keys.push(`${request.organizationId}:${found.checksum}`);
    }
    if (keys.length === 0) return new Map();
    const positions: Array<[number, number, number]> = [];
    const seen = new Set<string>();
    for (const frames of request.stacktraces) {
      for (const frame of frames) {
        const found = isMappable(frame) ? located.get(fileOf(frame) as string) : undefined;
        const at = found && framePosition(frame);
        if (!found || !at) continue;
        const position: [number, number, number] = [indexOf.get(found.checksum) as number, at.line, at.column];
        if (!seen.has(position.join(':'))) positions.push(position);
        seen.add(position.join(':'));
      }
    }
    const checksumOf = (key: string) => key.slice(request.organizationId.length + 1);
    const answers = await this.workers.resolve(request.organizationId, keys, positions, async (wanted) => {
      const contents = await this.artifacts.fileContents(sql, request.organizationId, wanted.map(checksumOf), this.maxReadBytesPerEvent);
      return new Map(wanted.map((key) => [key, contents.get(checksumOf(key)) ?? null]));
    });
    const answered = new Map<string, OriginalPosition | null>();
    positions.forEach((position, i) => answered.set(position.join(':'), answers.positions[i]));
    const found = new Map<string, FrameMap>();
    for (const [file, map] of located) {
      if (!map) continue;
      const index = indexOf.get(map.checksum) as number;
      found.set(
        file,
        answers.invalid[index]
          ? { invalid: true, url: map.url }
          : { url: map.url, map: { originalPosition: (line, column) => answered.get(`${index}:${line}:${column}`) ?? null } },
      );
    }
    return found;
  }

  private recall(key: string): Located | null | undefined {
    return this.lookups.get(key)?.located;
  }

  /** What was found is kept (maps never change once uploaded); a miss for a short while. */
  private remember(key: string, located: Located | null): void {
    this.lookups.set(key, { located }, located ? { ttl: 0 } : {});
  }

  /** A yes/no answer: a yes is kept, a no for a short while. */
  private async remembered(key: string, ask: () => Promise<boolean>): Promise<boolean> {
    return this.answers.forceFetch(key, { context: ask });
  }
}

function fileOf(frame: JsFrame): string | undefined {
  return frame.absPath ?? frame.filename;
}

/** Frames of JavaScript files with a position; runtime internals (`node:`, `<anonymous>`) have no map. */
function isMappable(frame: JsFrame): boolean {
  const file = fileOf(frame);
  if (!file || frame.lineno === undefined || frame.colno === undefined) return false;
  if (/^(node|internal|native|<anonymous>)/.test(file) || file.includes('/node_modules/')) return false;
  return true;
}

function uniqueErrors(errors: ProcessingError[]): ProcessingError[] {
  const seen = new Set<string>();
  return errors.filter((error) => {
    const key = JSON.stringify([error.type, error.data]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
