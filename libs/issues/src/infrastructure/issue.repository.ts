import { Injectable } from '@nestjs/common';
import { AggregateStreams, type Decided, EventRecorder, EventStore } from '@faultline/event-store';
import type { RecordedEvent } from '@faultline/kernel';
import type { Sql, Transaction } from '@faultline/platform';
import { Issue, type IssueEvent, IssueEventTypes, ISSUE_STREAM_TYPE, issueStream } from '../domain';

/**
 * Loads issues from their event streams and appends their decisions through the shared
 * load–decide–append step, keeping the `issues` read model's status and assignee in the same
 * transaction. An ignore also notes the issue's event and user counts then, which "ignored until
 * N more" is measured from.
 */
@Injectable()
export class IssueRepository {
  private readonly streams: AggregateStreams<Issue, IssueEvent>;

  constructor(
    private readonly eventStore: EventStore,
    recorder: EventRecorder,
  ) {
    this.streams = new AggregateStreams(eventStore, recorder, { streamType: ISSUE_STREAM_TYPE, rebuild: (history) => Issue.fromHistory(history) });
  }

  async load(sql: Sql, issueId: string): Promise<Issue | null> {
    return this.streams.load(sql, issueStream(issueId));
  }

  /** The issue's stream, oldest first. */
  async history(sql: Sql, issueId: string): Promise<Array<RecordedEvent & IssueEvent>> {
    return (await this.eventStore.readStream(sql, issueStream(issueId))) as Array<RecordedEvent & IssueEvent>;
  }

  /** Starts the stream of an issue just created (its row already inserted). */
  async create(tx: Transaction, issue: Issue): Promise<void> {
    const events = await this.streams.append(tx, issueStream(issue.id), issue);
    await this.updateReadModel(tx, issue, events);
  }

  /** Decides on an issue (see AggregateStreams.decide); null if there is no such issue. */
  async decide<R>(tx: Transaction, issueId: string, decide: (issue: Issue) => R, loaded?: Issue): Promise<Decided<Issue, R> | null> {
    const decided = await this.streams.decide(tx, issueStream(issueId), decide, { loaded });
    if (decided) await this.updateReadModel(tx, decided.aggregate, decided.recorded);
    return decided;
  }

  private async updateReadModel(tx: Transaction, issue: Issue, events: readonly RecordedEvent[]): Promise<void> {
    if (events.length === 0) return;
    const snapshot = issue.toSnapshot();
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
  }
}
