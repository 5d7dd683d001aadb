import type { NormalizedEvent } from './normalize-event';

/** A project's inbound filters: events they match are dropped and counted as `blacklisted`. */
export interface InboundFilters {
  readonly localhost: boolean;
  /** Glob patterns (`*`, `?`, case-insensitive) matched against the error message and title. */
  readonly errorMessages: readonly string[];
  /** Glob patterns matched against the release. */
  readonly releases: readonly string[];
}

export const NO_FILTERS: InboundFilters = Object.freeze({ localhost: false, errorMessages: [], releases: [] });

const LOCAL_ADDRESSES = new Set(['127.0.0.1', '::1', '0.0.0.0']);
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '0.0.0.0']);

export function globToRegExp(pattern: string): RegExp {
  const body = pattern
    .split('')
    .map((char) => (char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`, 'is');
}

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
  return messages;
}

/** Names the first filter that drops the event, or undefined when it is kept. */
export function matchingFilter(event: NormalizedEvent, filters: InboundFilters): 'localhost' | 'error-messages' | 'releases' | undefined {
  if (filters.localhost && isLocal(event)) return 'localhost';
  if (filters.errorMessages.length) {
    const patterns = filters.errorMessages.map(globToRegExp);
    if (messagesOf(event).some((message) => patterns.some((pattern) => pattern.test(message)))) return 'error-messages';
  }
  if (filters.releases.length && event.release) {
    const release = event.release;
    if (filters.releases.some((pattern) => globToRegExp(pattern).test(release))) return 'releases';
  }
  return undefined;
}
