import { EVENT_LIMITS } from './limits';
import { assign, bool, isObject, str } from './fields';
import { normalizeStacktrace, threadId } from './stacktrace';
import type { NormalizedThread } from './types';

/** The threads and their stack traces, at most `maxThreads`. */
export function normalizeThreads(value: unknown): NormalizedThread[] | undefined {
  const list = isObject(value) && Array.isArray(value.values) ? value.values : Array.isArray(value) ? value : [];
  const threads: NormalizedThread[] = [];
  for (const entry of list.slice(0, EVENT_LIMITS.maxThreads)) {
    if (!isObject(entry)) continue;
    const thread: NormalizedThread = {};
    assign(thread, 'id', threadId(entry.id));
    assign(thread, 'name', str(entry.name, EVENT_LIMITS.field));
    assign(thread, 'crashed', bool(entry.crashed));
    assign(thread, 'current', bool(entry.current));
    assign(thread, 'main', bool(entry.main));
    assign(thread, 'state', str(entry.state, EVENT_LIMITS.shortField));
    assign(thread, 'stacktrace', normalizeStacktrace(entry.stacktrace));
    if (Object.keys(thread).length > 0) threads.push(thread);
  }
  return threads.length > 0 ? threads : undefined;
}
