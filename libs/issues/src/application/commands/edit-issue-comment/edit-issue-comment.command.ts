import type { IssueActor } from '../../../domain';

/** Changes the text of a comment; only its author may. Answers the IssueComment. */
export class EditIssueCommentCommand {
  constructor(
    readonly organizationId: string,
    readonly issueId: string,
    readonly commentId: string,
    readonly text: string,
    readonly actor: IssueActor,
  ) {}
}
