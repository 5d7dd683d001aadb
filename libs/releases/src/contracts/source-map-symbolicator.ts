import type { Sql } from '@faultline/platform';
import type { JsFrame, ProcessingError } from '../domain/symbolicate-frames';

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

/**
 * Resolves an event's JavaScript frames through the source maps uploaded for it (by debug ID, then
 * by release, dist and URL), as ingest does before grouping. Frames it cannot map stay as sent.
 */
export abstract class SourceMapSymbolicator {
  abstract symbolicate<F extends JsFrame>(sql: Sql, request: SymbolicationRequest<F>): Promise<SymbolicationResult<F>>;
}
