import { originalPositionFor, sourceContentFor, type TraceMap } from '@jridgewell/trace-mapping';

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

/**
 * A parsed source map. The lines of its sources are split once, when first shown, and the
 * positions last looked up are remembered; what it answers is shared, so it is never changed.
 */
export class ParsedSourceMap {
  private readonly lines = new Map<number, string[] | null>();
  private readonly positions = new Map<string, OriginalPosition | null>();

  constructor(readonly map: TraceMap) {}

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
      lines = content === null ? null : content.split(/\r\n|\r|\n/);
      this.lines.set(index, lines);
    }
    return lines;
  }
}

/** Where a frame's file found its map: parsed, or found but unreadable. */
export type FrameMap = { map: ParsedSourceMap; url: string } | { invalid: true; url: string };

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
    if (!found || frame.lineno === undefined || frame.colno === undefined) return undefined;
    if ('invalid' in found) {
      errors.push(processingError('js_invalid_source', { url: found.url }));
      return undefined;
    }
    const position = found.map.originalPosition(frame.lineno, Math.max(0, frame.colno - 1));
    if (!position) {
      errors.push(processingError('js_invalid_sourcemap_location', { url: found.url, row: frame.lineno, column: frame.colno }));
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
