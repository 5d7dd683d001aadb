import type { RecordedEvent } from '@faultline/kernel';
import type { SubscriptionHandler } from '@faultline/event-store';
import { type IssueCreatedData, IssueEventTypes } from '@faultline/issues';
import type { TicketRepository } from '../../infrastructure/ticket.repository';

/** The durable subscriber's name: its checkpoint row. Renaming it would replay every issue. */
export const ISSUE_CREATED_SUBSCRIBER = 'ticket-tracker.issue-created';

/**
 * The subscriber's handler: queues one ticket per new issue in the transaction that advances the
 * checkpoint, so a crash either keeps both or neither, and a redelivery finds the ticket there.
 * The HTTP call happens later, outside any transaction (see TicketOpener), so a slow tracker
 * never holds a database connection.
 */
export function queueTickets(tickets: TicketRepository, queued: () => void): SubscriptionHandler {
  return async (events, tx) => {
    const subjects = events
      .filter((event): event is RecordedEvent<string, IssueCreatedData> => event.type === IssueEventTypes.IssueCreated && event.schemaVersion === 1)
      .map(({ data, eventId, recordedAt }) => ({
        issueId: data.issueId,
        organizationId: data.organizationId,
        projectId: data.projectId,
        shortId: data.shortId,
        title: data.title,
        culprit: data.culprit,
        level: data.level,
        sourceEventId: eventId,
        recordedAt,
      }));
    if (subjects.length === 0) return;
    if ((await tickets.enqueue(tx, subjects)) > 0) tx.afterCommit(queued);
  };
}
