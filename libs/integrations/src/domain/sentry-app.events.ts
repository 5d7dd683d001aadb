import { domainEvent } from '@faultline/kernel';

/** Facts about service apps (their table is the truth; the stream records what changed and who did it). */
export const SentryAppEventTypes = {
  SentryAppCreated: 'integrations.SentryAppCreated',
  SentryAppUpdated: 'integrations.SentryAppUpdated',
  SentryAppDeleted: 'integrations.SentryAppDeleted',
  SentryAppPublicationRequested: 'integrations.SentryAppPublicationRequested',
  SentryAppPublished: 'integrations.SentryAppPublished',
  ExternalIssueLinked: 'integrations.ExternalIssueLinked',
  ExternalIssueUnlinked: 'integrations.ExternalIssueUnlinked',
} as const;

export const SENTRY_APP_STREAM_TYPE = 'sentry_app';
export const sentryAppStream = (uuid: string): string => `sentry-app-${uuid}`;

type Actor = { readonly userId: string | null };

export const sentryAppCreated = (
  data: Actor & { appUuid: string; slug: string; organizationId: string; isInternal: boolean; scopes: string[]; events: string[] },
) => domainEvent(SentryAppEventTypes.SentryAppCreated, data);
export const sentryAppUpdated = (data: Actor & { appUuid: string; changed: string[] }) => domainEvent(SentryAppEventTypes.SentryAppUpdated, data);
export const sentryAppDeleted = (data: Actor & { appUuid: string }) => domainEvent(SentryAppEventTypes.SentryAppDeleted, data);
export const sentryAppPublicationRequested = (data: Actor & { appUuid: string }) => domainEvent(SentryAppEventTypes.SentryAppPublicationRequested, data);
export const sentryAppPublished = (data: Actor & { appUuid: string }) => domainEvent(SentryAppEventTypes.SentryAppPublished, data);
export const externalIssueLinked = (data: {
  appUuid: string;
  installationUuid: string;
  linkId: string;
  issueId: string;
  webUrl: string;
  project: string;
  identifier: string;
}) => domainEvent(SentryAppEventTypes.ExternalIssueLinked, data);
export const externalIssueUnlinked = (data: { appUuid: string; installationUuid: string; linkId: string; issueId: string }) =>
  domainEvent(SentryAppEventTypes.ExternalIssueUnlinked, data);
