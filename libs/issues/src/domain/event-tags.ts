/** What Sentry derives an event's tags from, as a normalised or a stored event has it. */
export interface EventTagSource {
  /** The SDK's own tags. */
  readonly tags: ReadonlyArray<readonly [string, string]>;
  readonly level?: unknown;
  readonly environment?: unknown;
  readonly release?: unknown;
  readonly dist?: unknown;
  readonly serverName?: unknown;
  readonly transaction?: unknown;
  readonly url?: unknown;
  /** The user as Sentry tags it (`id:…`, `email:…`). */
  readonly user?: unknown;
  /** The mechanism of the exception that was thrown. */
  readonly mechanism?: { readonly type?: unknown; readonly handled?: unknown };
}

/** Sentry's longest tag value: longer derived values (a URL) are cut to it, as the SDK's own tags are. */
export const MAX_TAG_VALUE = 200;

/**
 * The event's tags as Sentry shows them (the event API, webhook payloads, alert tag filters): the
 * SDK's own, plus those derived from its fields where the SDK set no tag of that key, by key.
 */
export function eventTags(source: EventTagSource): Array<[string, string]> {
  const tags = new Map<string, string>(source.tags.map(([key, value]) => [key, value]));
  const handled = source.mechanism?.handled;
  const derived: Array<[string, unknown]> = [
    ['level', source.level],
    ['environment', source.environment],
    ['release', source.release],
    ['dist', source.dist],
    ['server_name', source.serverName],
    ['transaction', source.transaction],
    ['url', source.url],
    ['user', source.user],
    ['mechanism', source.mechanism?.type],
    ['handled', typeof handled === 'boolean' ? (handled ? 'yes' : 'no') : undefined],
  ];
  for (const [key, value] of derived) {
    if (typeof value === 'string' && value !== '' && !tags.has(key)) tags.set(key, cut(value));
  }
  return [...tags].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Cuts to MAX_TAG_VALUE UTF-16 units without splitting a surrogate pair. */
function cut(text: string): string {
  if (text.length <= MAX_TAG_VALUE) return text;
  const code = text.charCodeAt(MAX_TAG_VALUE - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? MAX_TAG_VALUE - 1 : MAX_TAG_VALUE);
}
