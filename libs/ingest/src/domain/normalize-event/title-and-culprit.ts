import { EVENT_LIMITS } from './limits';
import { truncate } from './fields';
import type { NormalizedEvent, NormalizedException, NormalizedFrame } from './types';

/**
 * The pass that names the event from what the others read: its title (the thrown exception, else
 * the message) and its culprit (the SDK's, else the transaction, else the frames, else the URL).
 */
export function nameEvent(event: NormalizedEvent, sentCulprit: string | undefined): NormalizedEvent {
  event.culprit = truncate(sentCulprit ?? event.transaction ?? culpritFromExceptions(event.exceptions) ?? event.request?.url ?? '', EVENT_LIMITS.culprit);
  event.title = titleOf(event.exceptions, event.message);
  return event;
}

/**
 * The culprit once frames were mapped through source maps (the frames as sent are then in
 * `rawStacktrace`): a culprit that the frames as sent gave follows the mapped frames; any other stays.
 */
export function culpritAfterMapping(event: NormalizedEvent): string {
  if (!event.exceptions.some((exception) => exception.rawStacktrace)) return event.culprit;
  const sent = culpritFromExceptions(
    event.exceptions.map((exception) => (exception.rawStacktrace ? { ...exception, stacktrace: exception.rawStacktrace } : exception)),
  );
  if (sent === undefined || event.culprit !== sent.slice(0, EVENT_LIMITS.culprit)) return event.culprit;
  return (culpritFromExceptions(event.exceptions) ?? event.culprit).slice(0, EVENT_LIMITS.culprit);
}

/** Sentry's rule: the newest in-app frame of the last stack trace, else its newest frame. */
export function culpritFromExceptions(exceptions: NormalizedException[]): string | undefined {
  const frames = exceptions.findLast((exception) => exception.stacktrace)?.stacktrace?.frames;
  if (!frames) return undefined;
  let fallback: string | undefined;
  for (let index = frames.length - 1; index >= 0; index--) {
    const culprit = frameCulprit(frames[index]);
    if (!culprit) continue;
    if (frames[index].inApp) return culprit;
    fallback ??= culprit;
  }
  return fallback;
}

function frameCulprit(frame: NormalizedFrame): string | undefined {
  const location = frame.module || frame.filename;
  if (!location) return undefined;
  return `${truncate(location, 100)} in ${truncate(frame.function || '?', 100)}`;
}

/** The thrown exception's `Type: value`, else the message's first line. */
export function titleOf(exceptions: NormalizedException[], message: string | undefined): string {
  const main = exceptions.at(-1);
  if (main && (main.type || main.value)) {
    const type = main.type || 'Error';
    const value = firstLine(main.value ?? '');
    return truncate(value ? `${type}: ${value}` : type, EVENT_LIMITS.title);
  }
  const line = firstLine(message ?? '');
  return line ? truncate(line, EVENT_LIMITS.title) : '<unlabeled event>';
}

function firstLine(text: string): string {
  return (
    text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .find((line) => line !== '') ?? ''
  );
}
