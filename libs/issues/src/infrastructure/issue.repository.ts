import { Injectable } from '@nestjs/common';
import { EventRecorder, EventStore } from '@faultline/event-store';
import type { RecordedEvent } from '@faultline/kernel';
import type { Sql, Transaction } from '@faultline/platform';
import { Issue, type IssueEvent, IssueEventTypes, ISSUE_STREAM_TYPE, issueStream } from '../domain';

/**
 * Loads issues from their event streams and saves their new events with optimistic concurrency,
 * keeping the `issues` read model's status and assignee in the same transaction. An ignore also
 * notes the issue's event and user counts then, which "ignored until N more" is measured from.
 */
@Injectable()
export class IssueRepository {
  constructor(
    private readonly eventStore: EventStore,
    private readonly recorder: EventRecorder,
  ) {}

  async load(sql: Sql, issueId: string): Promise<Issue | null> {
    const history = await this.history(sql, issueId);
    return history.length ? Issue.fromHistory(history) : null;
  }

  /** The issue's stream, oldest first. */
  async history(sql: Sql, issueId: string): Promise<Array<RecordedEvent & IssueEvent>> {
    return (await this.eventStore.readStream(sql, issueStream(issueId))) as Array<RecordedEvent & IssueEvent>;
  }

  async save(tx: Transaction, issue: Issue): Promise<IssueEvent[]> {
    const expectedVersion = issue.loadedVersion;
    const events = issue.pullPendingEvents();
    if (events.length === 0) return [];
    const snapshot = issue.toSnapshot();
    await this.recorder.record(tx, issueStream(snapshot.id), ISSUE_STREAM_TYPE, events, {
      expectedVersion: expectedVersion === 0 ? 'no_stream' : expectedVersion,
    });
    await tx.execute(
      `UPDATE issues.issues SET status = $2, substatus = $3, assignee = $4::jsonb,
              times_seen_at_ignore = CASE WHEN $5 THEN times_seen ELSE times_seen_at_ignore END,
              user_count_at_ignore = CASE WHEN $5 THEN user_count ELSE user_count_at_ignore END
       WHERE id = $1`,
      [
        snapshot.id,
        snapshot.status,
        snapshot.substatus,
        snapshot.assignee ? JSON.stringify(snapshot.assignee) : null,
        events.some((event) => event.type === IssueEventTypes.IssueIgnored),
      ],
    );
    return events;
  }
}
