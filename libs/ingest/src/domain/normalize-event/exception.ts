import { EVENT_LIMITS } from './limits';
import { assign, bool, isObject, str } from './fields';
import { lenientString, smallObject } from './json-bounds';
import { lineNumber, normalizeStacktrace, threadId } from './stacktrace';
import type { NormalizedException, NormalizedMechanism } from './types';

/** The chained exceptions, oldest (the cause) first, at most `maxExceptions` (the newest). */
export function normalizeExceptions(value: unknown): NormalizedException[] {
  // Sentry accepts `{values: [...]}`, a bare list, or a single exception object.
  const list = Array.isArray(value)
    ? value
    : isObject(value)
      ? Array.isArray(value.values)
        ? value.values
        : 'type' in value || 'value' in value
          ? [value]
          : []
      : [];
  const exceptions: NormalizedException[] = [];
  for (const entry of list.slice(-EVENT_LIMITS.maxExceptions)) {
    if (!isObject(entry)) continue;
    const exception: NormalizedException = {};
    assign(exception, 'type', str(entry.type, EVENT_LIMITS.exceptionType));
    assign(exception, 'value', lenientString(entry.value, EVENT_LIMITS.exceptionValue));
    assign(exception, 'module', str(entry.module, EVENT_LIMITS.field));
    assign(exception, 'threadId', threadId(entry.thread_id));
    assign(exception, 'mechanism', normalizeMechanism(entry.mechanism));
    assign(exception, 'stacktrace', normalizeStacktrace(entry.stacktrace));
    if (exception.type || exception.value || exception.stacktrace) exceptions.push(exception);
  }
  return exceptions;
}

export function normalizeMechanism(value: unknown): NormalizedMechanism | undefined {
  if (!isObject(value)) return undefined;
  const mechanism: NormalizedMechanism = {};
  assign(mechanism, 'type', str(value.type, EVENT_LIMITS.shortField * 2));
  assign(mechanism, 'handled', bool(value.handled));
  assign(mechanism, 'synthetic', bool(value.synthetic));
  assign(mechanism, 'description', str(value.description, EVENT_LIMITS.message));
  assign(mechanism, 'helpLink', str(value.help_link, EVENT_LIMITS.url));
  assign(mechanism, 'source', str(value.source, EVENT_LIMITS.field));
  assign(mechanism, 'exceptionId', lineNumber(value.exception_id));
  assign(mechanism, 'parentId', lineNumber(value.parent_id));
  assign(mechanism, 'isExceptionGroup', bool(value.is_exception_group));
  assign(mechanism, 'data', smallObject(value.data));
  assign(mechanism, 'meta', smallObject(value.meta));
  return Object.keys(mechanism).length > 0 ? mechanism : undefined;
}
