import type { IssueActor } from '../../../domain';

/** Deletes a comment; only its author may. */
export class DeleteIssueCommentCommand {
  constructor(
    readonly organizationId: string,
    readonly issueId: string,
    readonly commentId: string,
    readonly actor: IssueActor,
  ) {}
}
