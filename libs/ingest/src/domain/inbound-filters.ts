import { GlobSet, globStateWords } from '@faultline/kernel';
import { EVENT_LIMITS, type NormalizedEvent } from './normalize-event';

/** A project's inbound filters: events they match are dropped and counted as `blacklisted`. */
export interface InboundFilters {
  readonly localhost: boolean;
  /** Glob patterns (`*`, `?`, case-insensitive) matched against the error message and title. */
  readonly errorMessages: readonly string[];
  /** Glob patterns matched against the release. */
  readonly releases: readonly string[];
}

export const NO_FILTERS: InboundFilters = Object.freeze({ localhost: false, errorMessages: [], releases: [] });

/**
 * What a project may configure (docs/sending-events.md, "Inbound filters"). Matching is linear in the text, but
 * its cost grows with the number and length of patterns, and every event of the project pays it
 * in the shared processor.
 */
export const INBOUND_FILTER_LIMITS = Object.freeze({ maxPatterns: 100, maxPatternLength: 200 });

/**
 * The most characters one event's filters read (the normaliser's limits): the messages (title,
 * `Type: value`, value, message) and the release, twice over because case folding may lengthen a
 * text (`İ`, the one character that does, becomes two).
 */
const MAX_FILTERED_CHARS_PER_EVENT =
  2 * (EVENT_LIMITS.title + EVENT_LIMITS.exceptionType + ': '.length + 2 * EVENT_LIMITS.exceptionValue + EVENT_LIMITS.message + EVENT_LIMITS.release);

/**
 * The most automaton work (`GlobSet.wordSteps`) matching one event takes, whatever the patterns and
 * event: every filtered character times the state words of the largest pattern set (629), about
 * 31 million, some 100 ms. Most patterns are decided by exact checks before it (fixed ends and
 * `indexOf`, a pass over the text per pattern at most) and cost none of it. `matchingFilter`
 * pauses before each message, so the event loop is held for one message at most (a third of it).
 */
export const MAX_FILTER_WORD_STEPS_PER_EVENT =
  MAX_FILTERED_CHARS_PER_EVENT * globStateWords(INBOUND_FILTER_LIMITS.maxPatterns, INBOUND_FILTER_LIMITS.maxPatternLength);

/** A project's filters made ready for matching, once per change rather than per event. */
export interface InboundFilterMatchers {
  readonly localhost: boolean;
  readonly errorMessages: GlobSet;
  readonly releases: GlobSet;
}

export function inboundFilterMatchers(filters: InboundFilters): InboundFilterMatchers {
  return { localhost: filters.localhost, errorMessages: new GlobSet(filters.errorMessages), releases: new GlobSet(filters.releases) };
}

const LOCAL_ADDRESSES = new Set(['127.0.0.1', '::1', '0.0.0.0']);
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '0.0.0.0']);

function isLocal(event: NormalizedEvent): boolean {
  if (event.user?.ipAddress && LOCAL_ADDRESSES.has(event.user.ipAddress)) return true;
  if (!event.request?.url) return false;
  try {
    return LOCAL_HOSTS.has(new URL(event.request.url).hostname) || new URL(event.request.url).hostname.endsWith('.localhost');
  } catch {
    return false;
  }
}

/** The messages an error-message pattern is tried against, as Sentry does: `Type: value`, the message, the title. */
function messagesOf(event: NormalizedEvent): string[] {
  const thrown = event.exceptions.at(-1);
  const messages = [event.title];
  if (thrown?.type) messages.push(thrown.value ? `${thrown.type}: ${thrown.value}` : thrown.type);
  if (thrown?.value) messages.push(thrown.value);
  if (event.message) messages.push(event.message);
  return [...new Set(messages)];
}

/**
 * Names the first filter that drops the event, or undefined when it is kept. `pause` is awaited
 * before each message is matched: the caller lets other work in there.
 */
export async function matchingFilter(
  event: NormalizedEvent,
  filters: InboundFilterMatchers,
  pause: () => Promise<void> = async () => {},
): Promise<'localhost' | 'error-messages' | 'releases' | undefined> {
  if (filters.localhost && isLocal(event)) return 'localhost';
  if (filters.errorMessages.size > 0) {
    for (const message of messagesOf(event)) {
      await pause();
      if (filters.errorMessages.matches(message)) return 'error-messages';
    }
  }
  // A release is short (EVENT_LIMITS.release): no pause needed.
  if (event.release && filters.releases.matches(event.release)) return 'releases';
  return undefined;
}
