import { Inject, Injectable } from '@nestjs/common';
import { TraceMap } from '@jridgewell/trace-mapping';
import { CLOCK, type Clock } from '@faultline/kernel';
import type { Sql } from '@faultline/platform';
import { ByteLru } from '../domain/byte-lru';
import { canonicalDebugId } from '../domain/bundle-manifest';
import { candidateUrls, resolveSourceMapUrl } from '../domain/source-map-urls';
import { type FrameMap, type JsFrame, ParsedSourceMap, type ProcessingError, processingError, symbolicateFrames } from '../domain/symbolicate-frames';
import { ArtifactsRepository } from './artifacts.repository';
import { RELEASES_CONFIG, type ReleasesConfig } from './releases-config';

export interface SymbolicationRequest<F extends JsFrame> {
  organizationId: string;
  projectId: string;
  release?: string;
  dist?: string;
  /** The event's `debug_meta.images`, as sent. */
  debugImages?: ReadonlyArray<Record<string, unknown>>;
  /** Each stack trace's frames, oldest call first. */
  stacktraces: ReadonlyArray<readonly F[]>;
}

export interface SymbolicationResult<F extends JsFrame> {
  /** Per stack trace, its mapped frames, or null when nothing in it was mapped. */
  stacktraces: Array<F[] | null>;
  errors: ProcessingError[];
}

/** A parsed map weighs about three times its JSON (mappings decoded, sources split into lines). */
const PARSED_WEIGHT = 3;
/** Debug ID and URL lookups that found a map, kept so a cached map costs no query. */
const MAX_REMEMBERED_LOOKUPS = 10_000;

/** How long a process believes a release has no artifacts before asking again. */
const RELEASE_ARTIFACTS_TTL_MS = 30_000;

const INVALID = Symbol('invalid source map');

/**
 * Resolves JavaScript frames through uploaded source maps, as Sentry does: by the debug ID the
 * SDK reports for the frame's file first, then by the event's release and dist and the file's URL.
 * Parsed maps are kept per process in an LRU bounded by bytes; they never change once uploaded.
 */
@Injectable()
export class SourceMapSymbolicator {
  private readonly maps: ByteLru<ParsedSourceMap | typeof INVALID>;
  private readonly lookups = new Map<string, { checksum: string; url: string }>();
  private readonly releasesWithArtifacts = new Map<string, { has: boolean; until: number }>();

  constructor(
    private readonly artifacts: ArtifactsRepository,
    @Inject(RELEASES_CONFIG) config: ReleasesConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.maps = new ByteLru(config.sourceMapCacheBytes);
  }

  async symbolicate<F extends JsFrame>(sql: Sql, request: SymbolicationRequest<F>): Promise<SymbolicationResult<F>> {
    const debugIds = new Map<string, string>();
    for (const image of request.debugImages ?? []) {
      const debugId = canonicalDebugId(image.debug_id);
      if (image.type === 'sourcemap' && debugId && typeof image.code_file === 'string') debugIds.set(image.code_file, debugId);
    }
    const files = new Set<string>();
    for (const frames of request.stacktraces) for (const frame of frames) if (isMappable(frame)) files.add(fileOf(frame) as string);
    if (files.size === 0 || (debugIds.size === 0 && !request.release)) return { stacktraces: request.stacktraces.map(() => null), errors: [] };

    const errors: ProcessingError[] = [];
    const found = new Map<string, FrameMap>();
    // Most events of a release nothing was uploaded for (a server's own files) cost one cached answer, not a query per file.
    const byRelease = !!request.release && [...files].some((file) => !debugIds.has(file)) && (await this.releaseHasArtifacts(sql, request));
    for (const file of files) {
      const debugId = debugIds.get(file);
      if (!debugId && !byRelease) continue;
      const located = await this.locate(sql, request, file, debugId);
      if (!located) {
        errors.push(processingError('js_no_source', { url: file }));
        continue;
      }
      const map = await this.load(sql, request.organizationId, located.checksum);
      found.set(file, map === INVALID ? { invalid: true, url: located.url } : { map, url: located.url });
    }
    const stacktraces = request.stacktraces.map((frames) => {
      const result = symbolicateFrames(frames, (frame) => (isMappable(frame) ? found.get(fileOf(frame) as string) : undefined));
      errors.push(...result.errors);
      return result.frames;
    });
    return { stacktraces, errors: uniqueErrors(errors) };
  }

  private async locate(
    sql: Sql,
    request: SymbolicationRequest<JsFrame>,
    file: string,
    debugId: string | undefined,
  ): Promise<{ checksum: string; url: string } | null> {
    const key = [request.organizationId, request.projectId, debugId ?? '', debugId ? '' : request.release, request.dist ?? '', file].join('\u0000');
    const remembered = this.lookups.get(key);
    if (remembered) return remembered;
    const located = debugId ? await this.byDebugId(sql, request, debugId) : await this.byRelease(sql, request, file);
    if (!located) return null;
    if (this.lookups.size >= MAX_REMEMBERED_LOOKUPS) this.lookups.delete(this.lookups.keys().next().value as string);
    this.lookups.set(key, located);
    return located;
  }

  /**
   * Whether anything was uploaded for the event's release: only then are its files looked up by
   * URL (and one without a map worth an error). A yes is kept; a no for a short while, so an upload
   * made after the first events is used within that time by every process.
   */
  private async releaseHasArtifacts(sql: Sql, request: SymbolicationRequest<JsFrame>): Promise<boolean> {
    const key = JSON.stringify([request.organizationId, request.projectId, request.release, request.dist ?? null]);
    const now = this.clock.now().getTime();
    const cached = this.releasesWithArtifacts.get(key);
    if (cached && (cached.has || cached.until > now)) return cached.has;
    const has = await this.artifacts.releaseHasArtifacts(sql, request.organizationId, request.projectId, request.release as string, request.dist ?? null);
    if (this.releasesWithArtifacts.size >= MAX_REMEMBERED_LOOKUPS) this.releasesWithArtifacts.clear();
    this.releasesWithArtifacts.set(key, { has, until: now + RELEASE_ARTIFACTS_TTL_MS });
    return has;
  }

  private async byDebugId(sql: Sql, request: SymbolicationRequest<JsFrame>, debugId: string) {
    const map = await this.artifacts.sourceMapByDebugId(sql, request.organizationId, request.projectId, debugId);
    return map ? { checksum: map.file_checksum, url: map.url ?? debugId } : null;
  }

  /** The minified file under one of its candidate URLs, then the map it names (by debug ID or URL), else `<file>.map`. */
  private async byRelease(sql: Sql, request: SymbolicationRequest<JsFrame>, file: string) {
    if (!request.release) return null;
    const candidates = candidateUrls(file);
    const urls = [...candidates, ...candidates.map((url) => `${url}.map`)];
    const matches = await this.artifacts.byReleaseUrls(sql, request.organizationId, request.projectId, request.release, request.dist ?? null, urls);
    const first = (types: readonly string[], wanted: readonly string[]) => {
      for (const url of wanted) {
        const match = matches.find((m) => m.url === url && types.includes(m.type));
        if (match) return match;
      }
      return undefined;
    };
    const minified = first(['minified_source', 'source'], candidates);
    if (minified?.debug_id) {
      const map = await this.artifacts.sourceMapByDebugId(sql, request.organizationId, request.projectId, minified.debug_id);
      if (map) return { checksum: map.file_checksum, url: map.url ?? minified.debug_id };
    }
    if (minified?.url && minified.sourcemap) {
      const mapUrl = resolveSourceMapUrl(minified.url, minified.sourcemap);
      const [map] = await this.artifacts.byReleaseUrls(sql, request.organizationId, request.projectId, request.release, request.dist ?? null, [mapUrl]);
      if (map) return { checksum: map.file_checksum, url: mapUrl };
    }
    const map = first(
      ['source_map'],
      candidates.map((url) => `${url}.map`),
    );
    return map ? { checksum: map.file_checksum, url: map.url ?? file } : null;
  }

  private async load(sql: Sql, organizationId: string, checksum: string): Promise<ParsedSourceMap | typeof INVALID> {
    const key = `${organizationId}:${checksum}`;
    const cached = this.maps.get(key);
    if (cached) return cached;
    const content = await this.artifacts.fileContent(sql, organizationId, checksum);
    let parsed: ParsedSourceMap | typeof INVALID = INVALID;
    try {
      if (content) parsed = new ParsedSourceMap(new TraceMap(content.toString('utf8')));
    } catch {
      parsed = INVALID;
    }
    this.maps.set(key, parsed, parsed === INVALID ? 64 : (content?.length ?? 0) * PARSED_WEIGHT);
    return parsed;
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
