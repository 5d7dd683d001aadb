import { GlobSet } from '@faultline/kernel';
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

/**
 * What a project may configure (README, "Sending events"). Matching is linear in the text, but
 * its cost grows with the number and length of patterns, and every event of the project pays it
 * in the shared processor.
 */
export const INBOUND_FILTER_LIMITS = Object.freeze({ maxPatterns: 100, maxPatternLength: 200 });

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
  return messages;
}

/** Names the first filter that drops the event, or undefined when it is kept. */
export function matchingFilter(event: NormalizedEvent, filters: InboundFilterMatchers): 'localhost' | 'error-messages' | 'releases' | undefined {
  if (filters.localhost && isLocal(event)) return 'localhost';
  if (filters.errorMessages.size > 0 && messagesOf(event).some((message) => filters.errorMessages.matches(message))) return 'error-messages';
  if (event.release && filters.releases.matches(event.release)) return 'releases';
  return undefined;
}
