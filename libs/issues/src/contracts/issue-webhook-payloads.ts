import type { Sql } from '@faultline/platform';

/** An issue as Sentry's issue webhooks carry it (`data.issue`): the spec's fields and the usual links. */
export interface IssueWebhookPayload {
  readonly id: string;
  readonly shortId: string;
  readonly title: string;
  readonly culprit: string;
  readonly level: string;
  readonly status: string;
  readonly substatus: string | null;
  readonly statusDetails: Record<string, unknown>;
  readonly platform: string;
  readonly firstSeen: string;
  readonly lastSeen: string;
  readonly count: number;
  readonly userCount: number;
  readonly assignedTo: unknown;
  readonly metadata: { readonly title: string };
  readonly project: { readonly id: string; readonly name: string; readonly slug: string; readonly platform: string | null };
  readonly url: string;
  readonly web_url: string;
  readonly project_url: string;
}

export interface IssueWebhookView {
  readonly organizationSlug: string;
  readonly issue: IssueWebhookPayload;
}

/**
 * The issues context owns the issue's shape: webhook senders read it here, in their own
 * transaction (so an issue created in it is seen), as it is in the issue list now.
 */
export abstract class IssueWebhookPayloads {
  /** The issues that exist, by id. */
  abstract find(sql: Sql, issueIds: readonly string[]): Promise<Map<string, IssueWebhookView>>;
  /** The id of the project's most recently seen issue (what a test notification shows), or null. */
  abstract latestOfProject(sql: Sql, projectId: string): Promise<string | null>;
}
