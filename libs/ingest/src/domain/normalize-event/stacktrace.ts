import { EVENT_LIMITS } from './limits';
import { normalizePlatform } from './attributes';
import { assign, bool, isObject, str, truncate } from './fields';
import { smallObject } from './json-bounds';
import { pairsFrom } from './pairs';
import type { NormalizedFrame, NormalizedStacktrace } from './types';

/** A stack trace (frames oldest first), at most `maxFrames` of them; undefined when no frame is usable. */
export function normalizeStacktrace(value: unknown): NormalizedStacktrace | undefined {
  if (!isObject(value) || !Array.isArray(value.frames)) return undefined;
  let frames = value.frames;
  if (frames.length > EVENT_LIMITS.maxFrames) {
    // The newest frames say where it broke, the oldest how it got there; the middle is repetition.
    frames = [...frames.slice(0, EVENT_LIMITS.keptOldestFrames), ...frames.slice(frames.length - (EVENT_LIMITS.maxFrames - EVENT_LIMITS.keptOldestFrames))];
  }
  const normalized = frames.map(normalizeFrame).filter((frame): frame is NormalizedFrame => frame !== undefined);
  if (normalized.length === 0) return undefined;
  const stacktrace: NormalizedStacktrace = { frames: normalized };
  const omitted = value.frames_omitted;
  if (Array.isArray(omitted) && omitted.length === 2 && omitted.every((index) => lineNumber(index) !== undefined)) {
    stacktrace.framesOmitted = [omitted[0] as number, omitted[1] as number];
  }
  if (isObject(value.registers)) {
    const registers = pairsFrom(value.registers, EVENT_LIMITS.shortField);
    if (registers.length > 0) stacktrace.registers = Object.fromEntries(registers);
  }
  return stacktrace;
}

/** A frame, also the shape of a failed template; undefined when it names no file, function, module or address. */
export function normalizeFrame(value: unknown): NormalizedFrame | undefined {
  if (!isObject(value)) return undefined;
  const frame: NormalizedFrame = {};
  assign(frame, 'filename', str(value.filename, EVENT_LIMITS.path));
  assign(frame, 'absPath', str(value.abs_path, EVENT_LIMITS.path));
  assign(frame, 'function', str(value.function, EVENT_LIMITS.symbol));
  assign(frame, 'rawFunction', str(value.raw_function, EVENT_LIMITS.symbol));
  assign(frame, 'module', str(value.module, EVENT_LIMITS.symbol));
  assign(frame, 'package', str(value.package, EVENT_LIMITS.path));
  assign(frame, 'platform', normalizePlatform(value.platform));
  assign(frame, 'symbol', str(value.symbol, EVENT_LIMITS.symbol));
  assign(frame, 'lineno', lineNumber(value.lineno));
  assign(frame, 'colno', lineNumber(value.colno));
  assign(frame, 'inApp', bool(value.in_app));
  assign(frame, 'contextLine', typeof value.context_line === 'string' ? truncate(value.context_line, EVENT_LIMITS.contextLine) : undefined);
  assign(frame, 'preContext', contextLines(value.pre_context, 'end'));
  assign(frame, 'postContext', contextLines(value.post_context, 'start'));
  assign(frame, 'vars', smallObject(value.vars));
  assign(frame, 'instructionAddr', str(value.instruction_addr, EVENT_LIMITS.shortField));
  assign(frame, 'symbolAddr', str(value.symbol_addr, EVENT_LIMITS.shortField));
  assign(frame, 'imageAddr', str(value.image_addr, EVENT_LIMITS.shortField));
  assign(frame, 'addrMode', str(value.addr_mode, EVENT_LIMITS.shortField));
  assign(frame, 'trust', str(value.trust, EVENT_LIMITS.shortField));
  return frame.filename || frame.absPath || frame.function || frame.module || frame.instructionAddr ? frame : undefined;
}

export function lineNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/** Keeps the lines nearest the failing line: the end of pre-context, the start of post-context. */
function contextLines(value: unknown, keep: 'start' | 'end'): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const lines = value.map((line) => (typeof line === 'string' ? truncate(line, EVENT_LIMITS.contextLine) : ''));
  const kept = keep === 'end' ? lines.slice(-EVENT_LIMITS.contextLines) : lines.slice(0, EVENT_LIMITS.contextLines);
  return kept.length > 0 ? kept : undefined;
}

export function threadId(value: unknown): string | number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  return str(value, EVENT_LIMITS.shortField);
}
