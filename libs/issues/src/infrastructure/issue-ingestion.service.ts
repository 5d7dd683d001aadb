import { Injectable } from '@nestjs/common';
import type { Transaction } from '@faultline/platform';
import { type IngestedEvent, IssueIngestion, type RecordedIssueEvent } from '../contracts/issue-ingestion';
import { Issue, type IssueLevel, ISSUE_LEVELS, shortIdFor, SYSTEM_ACTOR } from '../domain';
import { IssueRepository } from './issue.repository';

interface IssueRow {
  id: string;
  status: string;
}

const LEVELS: ReadonlySet<string> = new Set(ISSUE_LEVELS);

/** Groups a batch of processed events into issues: creates new ones, reopens regressed ones. */
@Injectable()
export class IssueIngestionService extends IssueIngestion {
  constructor(private readonly issues: IssueRepository) {
    super();
  }

  async recordEvents(tx: Transaction, events: readonly IngestedEvent[]): Promise<RecordedIssueEvent[]> {
    const groups = new Map<string, IngestedEvent[]>();
    for (const event of events) {
      const key = `${event.projectId}|${event.fingerprintHash}`;
      groups.set(key, [...(groups.get(key) ?? []), event]);
    }
    // Existing issues are locked in key order, the same for every worker, so batches cannot
    // deadlock; new issues are then created in arrival order, so short ids follow first sight.
    const existing = new Map<string, IssueRow>();
    for (const key of [...groups.keys()].sort()) {
      const row = await this.lockIssue(tx, (groups.get(key) as IngestedEvent[])[0]);
      if (row) existing.set(key, row);
    }
    const recorded: RecordedIssueEvent[] = [];
    for (const [key, group] of groups) {
      const row = existing.get(key);
      recorded.push(...(await this.recordGroup(tx, group, row ?? (await this.createIssue(tx, group[0])), !row)));
    }
    return recorded;
  }

  private async recordGroup(tx: Transaction, events: IngestedEvent[], issue: IssueRow, isNewIssue: boolean): Promise<RecordedIssueEvent[]> {
    const inserted = await this.insertEvents(tx, issue.id, events);
    if (inserted.length === 0) return [];
    if (!isNewIssue && issue.status !== 'unresolved') {
      const aggregate = await this.issues.load(tx, issue.id);
      if (aggregate) {
        // An issue ignored until N more events needs the count since it was ignored, this batch included.
        const ignoredAt = aggregate.status === 'ignored' ? aggregate.ignoreConditions?.ignoredAt : undefined;
        const afterIgnore = (event: IngestedEvent) => ignoredAt !== undefined && Date.parse(event.receivedAt) >= Date.parse(ignoredAt);
        let sinceIgnored = ignoredAt
          ? (await this.countSince(tx, issue.id, ignoredAt)) - inserted.filter(afterIgnore).length
          : undefined;
        for (const event of inserted) {
          if (sinceIgnored !== undefined && afterIgnore(event)) sinceIgnored++;
          aggregate.recordNewEvent(event.receivedAt, event.eventId, sinceIgnored);
        }
        await this.issues.save(tx, aggregate);
      }
    }
    const newUsers = await this.addUsers(tx, issue.id, inserted);
    const byTime = [...inserted].sort((a, b) => a.occurredAt.localeCompare(b.occurredAt));
    const [earliest, latest] = [byTime[0], byTime[byTime.length - 1]];
    await tx.execute(
      `UPDATE issues SET times_seen = times_seen + $2, user_count = user_count + $3,
              last_seen = GREATEST(last_seen, $4::timestamptz), first_seen = LEAST(first_seen, $5::timestamptz), last_event_id = $6
       WHERE id = $1`,
      [issue.id, inserted.length, newUsers, latest.occurredAt, earliest.occurredAt, latest.eventId],
    );
    return inserted.map((event, index) => ({ projectId: event.projectId, eventId: event.eventId, issueId: issue.id, isNewIssue: isNewIssue && index === 0 }));
  }

  private async countSince(tx: Transaction, issueId: string, since: string): Promise<number> {
    const [row] = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM error_events WHERE issue_id = $1 AND received_at >= $2`, [issueId, since]);
    return row.n;
  }

  private async lockIssue(tx: Transaction, event: IngestedEvent): Promise<IssueRow | undefined> {
    const [row] = await tx.query<IssueRow>(
      `SELECT id, status FROM issues WHERE project_id = $1 AND fingerprint_hash = $2 FOR UPDATE`,
      [event.projectId, event.fingerprintHash],
    );
    return row;
  }

  private async createIssue(tx: Transaction, event: IngestedEvent): Promise<IssueRow> {
    const [{ last_number: number }] = await tx.query<{ last_number: number }>(
      `INSERT INTO issue_counters (project_id, last_number) VALUES ($1, 1)
       ON CONFLICT (project_id) DO UPDATE SET last_number = issue_counters.last_number + 1 RETURNING last_number`,
      [event.projectId],
    );
    const shortId = shortIdFor(event.projectSlug, number);
    const level = (LEVELS.has(event.level) ? event.level : 'error') as IssueLevel;
    const [row] = await tx.query<IssueRow>(
      `INSERT INTO issues (project_id, fingerprint_hash, short_id, title, culprit, level, platform, status, substatus, first_seen, last_seen)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'unresolved', 'new', $8, $8)
       RETURNING id, status`,
      [event.projectId, event.fingerprintHash, shortId, event.title, event.culprit, level, event.platform, event.occurredAt],
    );
    const aggregate = Issue.create(SYSTEM_ACTOR, event.receivedAt, {
      issueId: row.id,
      projectId: event.projectId,
      organizationId: event.organizationId,
      shortId,
      title: event.title,
      culprit: event.culprit,
      level,
      platform: event.platform,
      fingerprintHash: event.fingerprintHash,
      firstSeen: event.occurredAt,
      firstEventId: event.eventId,
    });
    await this.issues.save(tx, aggregate);
    return row;
  }

  /** Stores the events; an event id seen before (an SDK retry) is stored and counted once. */
  private async insertEvents(tx: Transaction, issueId: string, events: IngestedEvent[]): Promise<IngestedEvent[]> {
    const params: unknown[] = [];
    const values = events.map((event) => {
      params.push(event.projectId, issueId, event.eventId, event.occurredAt, event.receivedAt, JSON.stringify(event.data));
      const at = params.length - 6;
      return `($${at + 1}::bigint, $${at + 2}::bigint, $${at + 3}, $${at + 4}::timestamptz, $${at + 5}::timestamptz, $${at + 6}::jsonb)`;
    });
    const rows = await tx.query<{ event_id: string }>(
      `INSERT INTO error_events (project_id, issue_id, event_id, occurred_at, received_at, data) VALUES ${values.join(', ')}
       ON CONFLICT (project_id, event_id) DO NOTHING RETURNING event_id`,
      params,
    );
    const stored = new Set(rows.map((row) => row.event_id));
    return events.filter((event) => stored.delete(event.eventId));
  }

  private async addUsers(tx: Transaction, issueId: string, events: IngestedEvent[]): Promise<number> {
    const hashes = [...new Set(events.map((event) => event.userHash).filter((hash): hash is string => !!hash))];
    if (hashes.length === 0) return 0;
    return tx.execute(
      `INSERT INTO issue_users (issue_id, user_hash) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`,
      [issueId, hashes],
    );
  }
}
