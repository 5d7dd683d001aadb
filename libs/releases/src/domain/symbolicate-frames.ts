import { decodedMappings, originalPositionFor, sourceContentFor, TraceMap } from '@jridgewell/trace-mapping';
import { decodedBytes, decodedBytesAtMost, mappingsShape } from './source-map-budget';

/** A JavaScript stack frame as events carry it (oldest call first in a stack trace). */
export interface JsFrame {
  filename?: string;
  absPath?: string;
  function?: string;
  module?: string;
  lineno?: number;
  colno?: number;
  inApp?: boolean;
  contextLine?: string;
  preContext?: string[];
  postContext?: string[];
}

/** Sentry's processing error types for JavaScript source maps, as the event API lists them. */
export type ProcessingErrorType = 'js_no_source' | 'js_invalid_source' | 'js_invalid_sourcemap_location' | 'js_missing_sources_content';

export interface ProcessingError {
  type: ProcessingErrorType;
  message: string;
  data: Record<string, string | number>;
}

const MESSAGES: Record<ProcessingErrorType, string> = {
  js_no_source: 'Source code was not found',
  js_invalid_source: 'Sourcemap was invalid or not parseable',
  js_invalid_sourcemap_location: 'Invalid location in sourcemap',
  js_missing_sources_content: 'Source missing from sourcemap',
};

export function processingError(type: ProcessingErrorType, data: Record<string, string | number>): ProcessingError {
  return { type, message: MESSAGES[type], data };
}

/** Where a minified position came from, with the source lines around it (null when the map has no source text). */
export interface OriginalPosition {
  source: string;
  /** The source as shown: without a bundler's scheme. */
  filename: string;
  line: number;
  column: number;
  name: string | null;
  context: { pre: string[]; line: string; post: string[] } | null;
}

/** Positions remembered per map: the frames of one issue repeat in every event of it. */
const MAX_REMEMBERED_POSITIONS = 1000;
/** Lines of one source split for showing; a line past them is shown without its context. */
const MAX_SOURCE_LINES = 200_000;
/** What a split line and a remembered position weigh besides their text. */
const SPLIT_LINE_BYTES = 48;
const REMEMBERED_POSITION_BYTES = 512;

/** Anything that answers a minified position's original one. */
export interface PositionSource {
  originalPosition(line: number, column: number): OriginalPosition | null;
}

/** A map that is not one, or whose decoding would cost more than allowed. */
export class SourceMapRefused extends Error {}

/**
 * A parsed source map. The lines of its sources are split once, when first shown, and the
 * positions last looked up are remembered; what it answers is shared, so it is never changed.
 */
export class ParsedSourceMap implements PositionSource {
  private readonly lines = new Map<number, string[] | null>();
  private readonly positions = new Map<string, OriginalPosition | null>();
  private splitBytes = 0;

  /** The decoded map's size, measured once decoded; `bytes` adds what showing its sources split. */
  constructor(
    readonly map: TraceMap,
    private readonly decodedSize = 0,
  ) {}

  /**
   * Parses and decodes a map whose `mappings` would decode to at most `maxDecodedBytes`; a larger
   * one is refused before anything is decoded.
   */
  static parse(text: string, maxDecodedBytes: number): ParsedSourceMap {
    let json: { mappings?: unknown; sources?: unknown; names?: unknown };
    try {
      json = JSON.parse(text);
    } catch {
      throw new SourceMapRefused('not JSON');
    }
    if (typeof json !== 'object' || json === null || typeof json.mappings !== 'string') throw new SourceMapRefused('no mappings');
    const entries = (Array.isArray(json.sources) ? json.sources.length : 0) + (Array.isArray(json.names) ? json.names.length : 0);
    const atMost = decodedBytesAtMost(mappingsShape(json.mappings), entries, text.length);
    if (atMost > maxDecodedBytes) throw new SourceMapRefused(`mappings would decode to ${atMost} bytes, over ${maxDecodedBytes}`);
    let map: TraceMap;
    try {
      map = new TraceMap(json as ConstructorParameters<typeof TraceMap>[0]);
      return new ParsedSourceMap(map, decodedBytes(decodedMappings(map), entries, text.length));
    } catch (error) {
      throw new SourceMapRefused(error instanceof Error ? error.message : 'unreadable');
    }
  }

  /** What the map holds in memory now: decoded, its sources split as shown, its remembered positions. */
  get bytes(): number {
    return this.decodedSize + this.splitBytes + this.positions.size * REMEMBERED_POSITION_BYTES;
  }

  originalPosition(line: number, column: number): OriginalPosition | null {
    const key = `${line}:${column}`;
    const remembered = this.positions.get(key);
    if (remembered !== undefined) return remembered;
    const found = originalPositionFor(this.map, { line, column });
    let position: OriginalPosition | null = null;
    if (found.source !== null && found.line !== null && found.column !== null) {
      const lines = this.sourceLines(found.source);
      const at = found.line - 1;
      const context =
        lines && at < lines.length
          ? {
              pre: lines.slice(Math.max(0, at - CONTEXT_LINES), at).map(bound),
              line: bound(lines[at]),
              post: lines.slice(at + 1, at + 1 + CONTEXT_LINES).map(bound),
            }
          : null;
      position = { source: found.source, filename: displayFilename(found.source), line: found.line, column: found.column, name: found.name, context };
    }
    if (this.positions.size >= MAX_REMEMBERED_POSITIONS) this.positions.clear();
    this.positions.set(key, position);
    return position;
  }

  private sourceLines(source: string): string[] | null {
    const index = this.map.resolvedSources.indexOf(source);
    if (index < 0) return null;
    let lines = this.lines.get(index);
    if (lines === undefined) {
      const content = sourceContentFor(this.map, source);
      lines = content === null ? null : content.split(/\r\n|\r|\n/, MAX_SOURCE_LINES);
      this.lines.set(index, lines);
      if (lines) this.splitBytes += lines.length * SPLIT_LINE_BYTES;
    }
    return lines;
  }
}

/** Where a frame's file found its map: parsed, or found but unreadable. */
export type FrameMap = { map: PositionSource; url: string } | { invalid: true; url: string };

/** Lines of source shown either side of the frame's line, as Sentry shows them. */
const CONTEXT_LINES = 5;
const MAX_CONTEXT_LINE = 1024;

export interface SymbolicatedFrames<F extends JsFrame> {
  /** The frames mapped to their original source, or null when none could be. */
  frames: F[] | null;
  errors: ProcessingError[];
}

/**
 * Maps minified frames to their original file, line, column and function, with the source lines
 * around them from the map's `sourcesContent`. A frame's function is named by its caller's call
 * site: the token there is the original name of the function called. Frames of a file without a
 * map keep what they had.
 */
export function symbolicateFrames<F extends JsFrame>(frames: readonly F[], mapFor: (frame: F) => FrameMap | undefined): SymbolicatedFrames<F> {
  const errors: ProcessingError[] = [];
  const positions = frames.map((frame) => {
    const found = mapFor(frame);
    const at = framePosition(frame);
    if (!found || !at) return undefined;
    if ('invalid' in found) {
      errors.push(processingError('js_invalid_source', { url: found.url }));
      return undefined;
    }
    const position = found.map.originalPosition(at.line, at.column);
    if (!position) {
      errors.push(processingError('js_invalid_sourcemap_location', { url: found.url, row: at.line, column: frame.colno as number }));
      return undefined;
    }
    return position;
  });
  if (positions.every((position) => position === undefined)) return { frames: null, errors: dedupe(errors) };

  const mapped = frames.map((frame, index) => {
    const position = positions[index];
    if (!position) return frame;
    // The minified file's module says nothing of the original; its source lines are replaced.
    // Object.assign, not a spread: V8 copies frames of varying shapes about twenty times faster so.
    const out: F = Object.assign({}, frame, {
      module: undefined,
      absPath: position.source,
      filename: position.filename,
      lineno: position.line,
      colno: position.column + 1,
      preContext: position.context?.pre,
      contextLine: position.context?.line,
      postContext: position.context?.post,
    });
    const callerName = positions[index - 1]?.name;
    if (callerName) out.function = callerName;
    if (position.filename.includes('node_modules/')) out.inApp = false;
    if (!position.context) errors.push(processingError('js_missing_sources_content', { url: position.source }));
    return out;
  });
  return { frames: mapped, errors: dedupe(errors) };
}

/** Where a frame is in its minified file, as a map is asked: 1-based line, 0-based column. */
export function framePosition(frame: JsFrame): { line: number; column: number } | null {
  if (frame.lineno === undefined || frame.colno === undefined) return null;
  return { line: frame.lineno, column: Math.max(0, frame.colno - 1) };
}

/** The source's path without a bundler's scheme (`webpack://app/`), as Sentry shows it. */
function displayFilename(source: string): string {
  return source.replace(/^webpack:\/\/[^/]*\//, '').replace(/^[a-z][a-z0-9+.-]*:\/\/\/?/i, '');
}

function bound(line: string): string {
  return line.length > MAX_CONTEXT_LINE ? line.slice(0, MAX_CONTEXT_LINE) : line;
}

function dedupe(errors: ProcessingError[]): ProcessingError[] {
  const seen = new Set<string>();
  return errors.filter((error) => {
    const key = JSON.stringify([error.type, error.data.url]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
