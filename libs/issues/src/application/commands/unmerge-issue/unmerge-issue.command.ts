import type { IssueActor } from '../../../domain';

/** The new issue of an unmerge. */
export interface UnmergedIssue {
  readonly issueId: string;
  readonly shortId: string;
}

/**
 * Sentry's unmerge (`DELETE …/issues/{id}/hashes/?id=…`): the events of these fingerprint hashes
 * of an organization's issue go to one new issue, with the hashes.
 */
export class UnmergeIssueCommand {
  constructor(
    readonly organizationId: string,
    readonly issueId: string,
    readonly hashes: readonly string[],
    readonly actor: IssueActor,
  ) {}
}
