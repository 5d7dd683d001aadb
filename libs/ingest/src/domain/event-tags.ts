import type { NormalizedEvent, StringPairs } from './normalize-event';

/**
 * The event's tags as Sentry shows them on the event (webhook payloads, alert tag filters): the
 * SDK's own, plus those derived from its fields where the SDK set no tag of that key, by key.
 *
 * @param userTag the user as Sentry tags it (`id:…`, `email:…`), if any
 */
export function eventTags(event: NormalizedEvent, userTag: string | undefined): StringPairs {
  const tags = new Map(event.tags);
  const mechanism = event.exceptions.at(-1)?.mechanism;
  const derived: Array<[string, string | undefined]> = [
    ['level', event.level],
    ['environment', event.environment],
    ['release', event.release],
    ['dist', event.dist],
    ['server_name', event.serverName],
    ['transaction', event.transaction],
    ['url', event.request?.url],
    ['user', userTag],
    ['mechanism', mechanism?.type],
    ['handled', mechanism?.handled === undefined ? undefined : mechanism.handled ? 'yes' : 'no'],
  ];
  for (const [key, value] of derived) {
    if (value && !tags.has(key)) tags.set(key, value);
  }
  return [...tags].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
