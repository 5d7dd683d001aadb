import { issueApiUrl, issueEventUrl } from '@faultline/issues';

/** What an app webhook says about one error event. */
export interface ErrorPayloadSource {
  readonly eventId: string;
  readonly projectId: string;
  readonly issueId: string;
  readonly title: string;
  readonly culprit: string;
  readonly message: string;
  readonly level: string;
  readonly platform: string;
  /** ISO 8601 */
  readonly datetime: string;
  readonly release: string | null;
  readonly environment: string;
  readonly tags: ReadonlyArray<readonly [string, string]>;
  /** For the links; without an organization (its issue is gone) the payload has none. */
  readonly organizationSlug?: string;
  readonly projectSlug: string;
}

/**
 * The error event as service-app webhooks carry it, Sentry's serialised event with its links:
 * `error.created` sends it as `data.error`, `event_alert.triggered` as `data.event`.
 */
export function errorPayload(publicUrl: string, event: ErrorPayloadSource) {
  const organization = event.organizationSlug;
  return {
    event_id: event.eventId,
    project: Number(event.projectId),
    issue_id: event.issueId,
    title: event.title,
    culprit: event.culprit,
    message: event.message,
    level: event.level,
    platform: event.platform,
    datetime: event.datetime,
    timestamp: Date.parse(event.datetime) / 1000,
    release: event.release,
    environment: event.environment,
    tags: event.tags.map(([key, value]) => [key, value] as [string, string]),
    ...(organization === undefined
      ? {}
      : {
          url: `${publicUrl}/api/0/projects/${organization}/${event.projectSlug}/events/${event.eventId}/`,
          web_url: issueEventUrl(publicUrl, organization, event.issueId, event.eventId),
          issue_url: issueApiUrl(publicUrl, organization, event.issueId),
        }),
  };
}

export type ErrorPayload = ReturnType<typeof errorPayload>;
