import type { IssueActor, IssueAssignee } from '../../../domain';

export const ISSUE_STATUS_CHANGES = ['resolved', 'unresolved', 'ignored', 'resolvedInNextRelease', 'muted'] as const;
export type IssueStatusChange = (typeof ISSUE_STATUS_CHANGES)[number];

/** Sentry's `statusDetails` of an issue update. */
export interface IssueStatusDetailsChange {
  readonly inRelease?: string;
  readonly inNextRelease?: boolean;
  readonly inCommit?: unknown;
  /** Minutes. */
  readonly ignoreDuration?: number;
  readonly ignoreCount?: number;
  /** ISO 8601. */
  readonly ignoreUntil?: string;
  readonly ignoreWindow?: number;
  readonly ignoreUserCount?: number;
  readonly ignoreUserWindow?: number;
}

export interface IssueChanges {
  readonly status?: IssueStatusChange;
  readonly statusDetails?: IssueStatusDetailsChange;
  /** `user:<id>`, `team:<id>`, a user id, a member's e-mail; null or '' unassigns. */
  readonly assignedTo?: string | null;
}

/** What was asked, as Sentry answers a bulk update (only the fields that were sent). */
export interface IssueChangesResult {
  status?: 'resolved' | 'unresolved' | 'ignored';
  substatus?: string | null;
  statusDetails?: Record<string, unknown>;
  assignedTo?: IssueAssignee | null;
}

/** Changes the status and/or assignee of one or more issues of an organization, all or none. */
export class UpdateIssueCommand {
  constructor(
    readonly organizationId: string,
    readonly issueIds: readonly string[],
    readonly changes: IssueChanges,
    readonly actor: IssueActor,
    /** When set, every issue must belong to this project. */
    readonly projectId?: string,
  ) {}
}
