import { Injectable } from '@nestjs/common';
import { MemberEmails, type MemberRecipient } from '@faultline/identity';
import { type CommentAddedData, type IssueAssignedData, IssueEventTypes, type IssueUnresolvedData } from '@faultline/issues';
import type { RecordedEvent } from '@faultline/kernel';
import type { Transaction } from '@faultline/platform';
import { MailOutbox } from './mail-outbox';
import { NotificationsRepository } from './notifications.repository';

type WorkflowEvent =
  | { type: typeof IssueEventTypes.IssueAssigned; data: IssueAssignedData }
  | { type: typeof IssueEventTypes.IssueUnresolved; data: IssueUnresolvedData }
  | { type: typeof IssueEventTypes.CommentAdded; data: CommentAddedData };

const WORKFLOW_TYPES: ReadonlySet<string> = new Set([IssueEventTypes.IssueAssigned, IssueEventTypes.IssueUnresolved, IssueEventTypes.CommentAdded]);

/**
 * Sentry's workflow notifications, queued in the transaction that records the issue's event: the
 * assignee (a user, or a team's members) hears of the assignment, an issue's participants (its
 * assignees and commenters) hear of a regression and of new comments. Nobody is told of their own
 * action, and a user who turned workflow mail off gets none.
 */
@Injectable()
export class WorkflowMailer {
  constructor(
    private readonly mail: MailOutbox,
    private readonly members: MemberEmails,
    private readonly repository: NotificationsRepository,
  ) {}

  readonly onAppended = async (tx: Transaction, events: readonly RecordedEvent[]): Promise<void> => {
    const relevant = events.filter((event) => WORKFLOW_TYPES.has(event.type)) as unknown as Array<RecordedEvent & WorkflowEvent>;
    const workflow = relevant.filter((event) => event.type !== IssueEventTypes.IssueUnresolved || (event.data as IssueUnresolvedData).reason === 'regression');
    if (workflow.length === 0) return;
    const digests = await this.mail.digests(
      tx,
      workflow.map((event) => event.data.issueId),
    );
    for (const event of workflow) {
      const { data } = event;
      const digest = digests.get(data.issueId);
      if (!digest) continue;
      const actorId = data.actor.type === 'user' ? data.actor.id : null;
      let recipients: MemberRecipient[];
      let headline: string;
      let reason: string;
      if (event.type === IssueEventTypes.IssueAssigned) {
        const { assignee } = event.data;
        recipients =
          assignee.type === 'user'
            ? await this.members.ofUsers(tx, data.organizationId, [assignee.id])
            : await this.members.ofTeams(tx, data.organizationId, [assignee.id]);
        if (assignee.type === 'user') await this.repository.addParticipants(tx, data.issueId, [assignee.id]);
        headline = `${data.actor.name} assigned ${digest.shortId} to ${assignee.type === 'user' ? 'you' : `your team${assignee.name ? ` ${assignee.name}` : ''}`}.`;
        reason = 'assigned';
      } else if (event.type === IssueEventTypes.CommentAdded) {
        recipients = await this.members.ofUsers(tx, data.organizationId, await this.repository.participants(tx, data.issueId));
        if (actorId) await this.repository.addParticipants(tx, data.issueId, [actorId]);
        headline = `${data.actor.name} commented on ${digest.shortId}: ${event.data.text.slice(0, 500)}`;
        reason = 'comment';
      } else {
        recipients = await this.members.ofUsers(tx, data.organizationId, await this.repository.participants(tx, data.issueId));
        headline = `${digest.shortId} was resolved and has come back (a regression).`;
        reason = 'regression';
      }
      await this.mail.issueMails(tx, {
        organizationId: data.organizationId,
        issueId: data.issueId,
        digest,
        type: 'workflow',
        reason,
        cause: event.eventId,
        headline,
        recipients: recipients.filter((recipient) => recipient.userId !== actorId),
      });
    }
  };
}
