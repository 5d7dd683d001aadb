import type { IssueActor } from '../../../domain';

/** Adds a comment (Sentry "note") to an issue of an organization; answers the IssueComment. */
export class AddIssueCommentCommand {
  constructor(
    readonly organizationId: string,
    readonly issueId: string,
    readonly text: string,
    readonly actor: IssueActor,
  ) {}
}
