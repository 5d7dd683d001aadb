import { createHash } from 'node:crypto';
import { eventTags } from '@faultline/issues';
import { groupingHash } from './grouping';
import { culpritAfterMapping, EVENT_LIMITS, type NormalizedEvent, type NormalizedUser, type StringPairs, titleOf } from './normalize-event';
import { type DataScrubber, scrubEvent } from './scrub-event';

/** The user's identifier as Sentry tags it (`id:`, `username:`, `email:`, `ip:`) and its hash. */
export interface UserIdentity {
  readonly tagValue: string;
  readonly hash: string;
}

/** What the event processor stores of one event, each value derived once. */
export interface PreparedEvent {
  /** The event as stored: the normalised event with its culprit after source mapping. */
  readonly event: NormalizedEvent;
  readonly fingerprintHash: string;
  readonly user?: UserIdentity;
  /**
   * What the event is counted under in its issue's tag values: the SDK's tags in the order sent,
   * then level, environment, release and user, each added even where the SDK sent a tag of that key,
   * then the other tags it shows (`url`, `handled`, …) where the SDK sent none of that key.
   */
  readonly issueTags: StringPairs;
  /** Sentry's rule: some exception's mechanism says it was not handled. */
  readonly unhandled: boolean;
  /** What the event is counted under in its project's tag values: the issue's, and `user.email`, which an issue's (like Sentry's) do not answer. */
  readonly projectTags: StringPairs;
  /**
   * The event's tags as Sentry shows them (its recorded `ErrorEventProcessed`: webhooks, alerts),
   * by `eventTags` of @faultline/issues, which the event API applies to the stored event too: a
   * derived tag only where the SDK set none of that key, more of them, by key.
   */
  readonly shownTags: StringPairs;
}

/**
 * Derives what the processor stores from a normalised event whose frames were mapped through
 * source maps: scrubs it first (nothing unscrubbed is derived, stored or sent on), then its title
 * from the scrubbed text, its culprit (again from the mapped frames), grouping hash, user and tags.
 */
export function prepareEvent(normalized: NormalizedEvent, scrubber: DataScrubber): PreparedEvent {
  const sentUrl = normalized.request?.url;
  const scrubbed = scrubEvent(normalized, scrubber);
  scrubbed.title = titleOf(scrubbed.exceptions, scrubbed.message);
  // A culprit taken from the URL follows the URL's scrubbing.
  if (sentUrl && scrubbed.request?.url !== sentUrl && scrubbed.culprit === sentUrl.slice(0, EVENT_LIMITS.culprit)) {
    scrubbed.culprit = (scrubbed.request?.url ?? '').slice(0, EVENT_LIMITS.culprit);
  }
  const culprit = culpritAfterMapping(scrubbed);
  const event = culprit === scrubbed.culprit ? scrubbed : { ...scrubbed, culprit };
  const user = userIdentity(event.user);
  const issueTags: StringPairs = [...event.tags, ['level', event.level]];
  if (event.environment) issueTags.push(['environment', event.environment]);
  if (event.release) issueTags.push(['release', event.release]);
  if (user) issueTags.push(['user', user.tagValue]);
  const shownTags = eventTags({
    tags: event.tags,
    level: event.level,
    environment: event.environment,
    release: event.release,
    dist: event.dist,
    serverName: event.serverName,
    transaction: event.transaction,
    url: event.request?.url,
    user: user?.tagValue,
    mechanism: event.exceptions.at(-1)?.mechanism,
  });
  const counted = new Set(issueTags.map(([key]) => key));
  for (const [key, value] of shownTags) if (!counted.has(key)) issueTags.push([key, value]);
  return {
    event,
    fingerprintHash: groupingHash(event).hash,
    user,
    issueTags,
    unhandled: event.exceptions.some((exception) => exception.mechanism?.handled === false),
    projectTags: event.user?.email ? [...issueTags, ['user.email', event.user.email]] : issueTags,
    shownTags,
  };
}

function userIdentity(user: NormalizedUser | undefined): UserIdentity | undefined {
  if (!user) return undefined;
  const pairs: Array<[string, string | undefined]> = [
    ['id', user.id],
    ['username', user.username],
    ['email', user.email],
    ['ip', user.ipAddress],
  ];
  const found = pairs.find(([, value]) => value);
  if (!found) return undefined;
  const [kind, value] = found as [string, string];
  return { tagValue: `${kind}:${value}`, hash: createHash('md5').update(value).digest('hex') };
}
