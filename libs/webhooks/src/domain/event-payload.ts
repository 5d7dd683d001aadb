/** What the service-hook payloads say about an error event and its issue. */
export interface EventPayloadSource {
  readonly issueId: string;
  readonly projectSlug: string;
  readonly projectName: string;
  readonly culprit: string;
  readonly message: string;
  readonly eventId: string;
  readonly level: string;
  readonly platform: string;
  readonly tags: ReadonlyArray<readonly [string, string]>;
  /** ISO 8601 */
  readonly datetime: string;
}

export interface EventHookPayload {
  id: string;
  project: string;
  project_name: string;
  culprit: string;
  url: string;
  message: string;
  triggering_rules: string[];
  event: { event_id: string; level: string; tags: Array<[string, string]>; platform: string; datetime: string };
}

/**
 * The `event.created` and `event.alert` body, with the spec's fields and nothing else. `id` is the
 * delivery's own id (the `webhook-id` header without its `msg_` prefix): the same across retries
 * and different for every hook, event and kind, so receivers can deduplicate on it. `issueUrl` is
 * the issue's page, as the issues context links it.
 */
export function eventHookPayload(deliveryId: string, source: EventPayloadSource, issueUrl: string, triggeringRules: readonly string[]): EventHookPayload {
  return {
    id: deliveryId,
    project: source.projectSlug,
    project_name: source.projectName,
    culprit: source.culprit,
    url: issueUrl,
    message: source.message,
    triggering_rules: [...triggeringRules],
    event: {
      event_id: source.eventId,
      level: source.level,
      tags: source.tags.map(([key, value]) => [key, value]),
      platform: source.platform,
      datetime: microsecondIso(source.datetime),
    },
  };
}

/** `2026-11-22T12:00:00.123456Z`: ISO 8601 in UTC with six fractional digits, as Sentry sends it. */
export function microsecondIso(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:?\d{2})?$/.exec(iso);
  if (match && (match[3] === undefined || match[3] === 'Z')) return `${match[1]}.${(match[2] ?? '').padEnd(6, '0').slice(0, 6)}Z`;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) throw new Error(`not a timestamp: ${iso}`);
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
