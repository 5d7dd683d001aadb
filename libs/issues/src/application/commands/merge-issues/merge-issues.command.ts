import type { IssueActor } from '../../../domain';

/** Sentry's answer to a merge: the primary issue and the ones merged into it. */
export interface MergedIssues {
  readonly parent: string;
  readonly children: string[];
}

/**
 * Merges issues of one project of an organization (of the given project, when named) into the
 * one with the most events: Sentry's bulk `PUT …/issues/?id=…` with `{"merge": 1}`.
 */
export class MergeIssuesCommand {
  constructor(
    readonly organizationId: string,
    readonly issueIds: readonly string[],
    readonly actor: IssueActor,
    readonly projectId?: string,
  ) {}
}
