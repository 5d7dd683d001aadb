import { Injectable } from '@nestjs/common';
import type { Transaction } from '@faultline/platform';
import { ProjectOwnership } from '@faultline/projects';
import { type IngestedEvent, IssueIngestion, type RecordedIssueEvent } from '../contracts/issue-ingestion';
import { Issue, type IssueLevel, ISSUE_LEVELS, mainException, ownershipSubjectOf, shortIdFor, SYSTEM_ACTOR } from '../domain';
import { IssueRepository } from './issue.repository';

interface IssueRow {
  id: string;
  status: string;
}

interface LockedIssueRow extends IssueRow {
  /** Events and new users counted since the issue was last ignored, this batch not yet included. */
  events_since_ignored: string | null;
  users_since_ignored: string | null;
}

interface FoundIssue {
  id: string;
  isNew: boolean;
}

const LEVELS: ReadonlySet<string> = new Set(ISSUE_LEVELS);

/** The resolutions of an issue's event counts, with their bucket size in milliseconds. */
const STAT_BUCKETS = [
  ['1h', 3_600_000],
  ['1d', 86_400_000],
] as const;

/** Groups a batch of processed events into issues: creates new ones, reopens regressed ones. */
@Injectable()
export class IssueIngestionService extends IssueIngestion {
  constructor(
    private readonly issues: IssueRepository,
    private readonly ownership: ProjectOwnership,
  ) {
    super();
  }

  /**
   * A handful of statements per batch whatever the number of issues it touches. Concurrent
   * batches overlap: issue rows are locked only at the end (the same order for every worker, so
   * batches cannot deadlock), and storing events takes key-share locks that do not wait for them.
   */
  async recordEvents(tx: Transaction, events: readonly IngestedEvent[]): Promise<RecordedIssueEvent[]> {
    if (events.length === 0) return [];
    const groups = new Map<string, IngestedEvent[]>();
    for (const event of events) {
      const key = groupKey(event.projectId, event.fingerprintHash);
      const group = groups.get(key);
      if (group) group.push(event);
      else groups.set(key, [event]);
    }
    const existing = await this.findIssues(
      tx,
      [...groups.values()].map((group) => group[0]),
    );
    const missing = [...groups.keys()].filter((key) => !existing.has(key));
    if (missing.length > 0) {
      // Another batch may be creating the same issue: one creator per fingerprint, the rest use its issue.
      await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended(key, 0)) FROM unnest($1::text[]) AS key ORDER BY key`, [
        [...missing].sort().map((key) => `issue:${key}`),
      ]);
      const created = await this.findIssues(
        tx,
        missing.map((key) => (groups.get(key) as IngestedEvent[])[0]),
      );
      // Project by project, as every batch takes the projects' short id counters (one order, no
      // deadlock between batches), and in arrival order within one, so short ids follow first sight.
      const projectOf = (key: string) => key.slice(0, key.indexOf('|'));
      const byProject = [...missing].sort((a, b) => (projectOf(a) < projectOf(b) ? -1 : projectOf(a) > projectOf(b) ? 1 : 0));
      for (const key of byProject) {
        existing.set(key, created.get(key) ?? { ...(await this.createIssue(tx, (groups.get(key) as IngestedEvent[])[0])), isNew: true });
      }
    }
    const issueOf = (event: IngestedEvent) => existing.get(groupKey(event.projectId, event.fingerprintHash)) as FoundIssue;

    const inserted = await this.insertEvents(tx, events, (event) => issueOf(event).id);
    const insertedByIssue = new Map<string, IngestedEvent[]>();
    for (const event of inserted) {
      const list = insertedByIssue.get(issueOf(event).id);
      if (list) list.push(event);
      else insertedByIssue.set(issueOf(event).id, [event]);
    }
    if (insertedByIssue.size === 0) return [];
    const locked = await tx.query<LockedIssueRow>(
      `SELECT id, status, times_seen - times_seen_at_ignore AS events_since_ignored, user_count - user_count_at_ignore AS users_since_ignored
       FROM issues.issues WHERE id = ANY($1::bigint[]) ORDER BY id FOR NO KEY UPDATE`,
      [[...insertedByIssue.keys()]],
    );
    const newUsers = await this.addUsers(tx, insertedByIssue);
    for (const row of locked) {
      const issueEvents = insertedByIssue.get(String(row.id)) as IngestedEvent[];
      if (row.status !== 'unresolved' && !issueOf(issueEvents[0]).isNew) {
        await this.recordRecurrence(tx, row, issueEvents, newUsers.get(String(row.id)) ?? new Set());
      }
    }
    await this.updateCounters(tx, insertedByIssue, newUsers);
    await this.addTagValues(tx, insertedByIssue);

    const recorded: RecordedIssueEvent[] = [];
    for (const [issueId, issueEvents] of insertedByIssue) {
      const { isNew } = issueOf(issueEvents[0]);
      issueEvents.forEach((event, index) => recorded.push({ projectId: event.projectId, eventId: event.eventId, issueId, isNewIssue: isNew && index === 0 }));
    }
    return recorded;
  }

  private async findIssues(tx: Transaction, firsts: readonly IngestedEvent[]): Promise<Map<string, FoundIssue>> {
    // A hash names its issue (merges and unmerges move hashes, a delete drops them); every issue's hashes are kept.
    const rows = await tx.query<{ id: string; project_id: string; fingerprint_hash: string }>(
      `SELECT h.issue_id AS id, v.project_id, v.hash AS fingerprint_hash
       FROM unnest($1::bigint[], $2::text[]) AS v (project_id, hash)
       JOIN issues.issue_hashes h ON h.project_id = v.project_id AND h.hash = v.hash`,
      [firsts.map((event) => event.projectId), firsts.map((event) => event.fingerprintHash)],
    );
    return new Map(rows.map((row) => [groupKey(row.project_id, row.fingerprint_hash), { id: String(row.id), isNew: false }]));
  }

  /** New events of a resolved or ignored issue: the aggregate decides whether it comes back. */
  private async recordRecurrence(tx: Transaction, issue: LockedIssueRow, inserted: IngestedEvent[], newUsers: ReadonlySet<string>): Promise<void> {
    await this.issues.decide(tx, String(issue.id), (aggregate) => {
      // As in Sentry, "ignored until N more events (users)" compares the issue's counters with their
      // values at the ignore: a noisy ignored issue costs no scan of its stored events.
      const ignored = aggregate.status === 'ignored';
      let events = Number(issue.events_since_ignored ?? 0);
      let users = Number(issue.users_since_ignored ?? 0);
      const uncounted = new Set(newUsers);
      for (const event of inserted) {
        events++;
        if (event.userHash && uncounted.delete(event.userHash)) users++;
        aggregate.recordNewEvent(event.receivedAt, event.eventId, { release: event.release, sinceIgnored: ignored ? { events, users } : undefined });
      }
    });
  }

  /** Counters, first and last seen and releases, whether any event was unhandled, and the hourly and daily counts of the issues' graphs. */
  private async updateCounters(tx: Transaction, insertedByIssue: Map<string, IngestedEvent[]>, newUsers: Map<string, Set<string>>): Promise<void> {
    if (insertedByIssue.size === 0) return;
    const ids: string[] = [];
    const counts: number[] = [];
    const users: number[] = [];
    const unhandled: boolean[] = [];
    const lastSeen: string[] = [];
    const firstSeen: string[] = [];
    const firstReleases: Array<string | null> = [];
    const firstReleasesAt: Array<string | null> = [];
    const lastReleases: Array<string | null> = [];
    const lastReleasesAt: Array<string | null> = [];
    const buckets = new Map<string, number>();
    for (const [issueId, issueEvents] of insertedByIssue) {
      let earliest = issueEvents[0];
      let latest = issueEvents[0];
      let earliestReleased: IngestedEvent | undefined;
      let latestReleased: IngestedEvent | undefined;
      for (const event of issueEvents) {
        if (event.occurredAt < earliest.occurredAt) earliest = event;
        if (event.occurredAt >= latest.occurredAt) latest = event;
        if (event.release) {
          if (!earliestReleased || event.occurredAt < earliestReleased.occurredAt) earliestReleased = event;
          if (!latestReleased || event.occurredAt >= latestReleased.occurredAt) latestReleased = event;
        }
        const at = Date.parse(event.occurredAt);
        for (const [resolution, size] of STAT_BUCKETS) {
          const key = `${issueId}|${resolution}|${at - (at % size)}`;
          buckets.set(key, (buckets.get(key) ?? 0) + 1);
        }
      }
      ids.push(issueId);
      counts.push(issueEvents.length);
      users.push(newUsers.get(issueId)?.size ?? 0);
      unhandled.push(issueEvents.some((event) => event.unhandled === true));
      lastSeen.push(latest.occurredAt);
      firstSeen.push(earliest.occurredAt);
      firstReleases.push(earliestReleased?.release ?? null);
      firstReleasesAt.push(earliestReleased?.occurredAt ?? null);
      lastReleases.push(latestReleased?.release ?? null);
      lastReleasesAt.push(latestReleased?.occurredAt ?? null);
    }
    // Events arrive in any order: what is first and newest is decided by event time, across batches.
    await tx.execute(
      `UPDATE issues.issues SET times_seen = issues.times_seen + v.seen, user_count = issues.user_count + v.users,
              last_seen = GREATEST(issues.last_seen, v.last_seen), first_seen = LEAST(issues.first_seen, v.first_seen),
              unhandled = issues.unhandled OR v.unhandled,
              (first_release, first_release_at) = (SELECT * FROM (VALUES (v.first_release, v.first_release_at), (issues.first_release, issues.first_release_at)) AS r (release, at)
                                                   WHERE r.release IS NOT NULL ORDER BY r.at LIMIT 1),
              (last_release, last_release_at) = (SELECT * FROM (VALUES (v.last_release, v.last_release_at), (issues.last_release, issues.last_release_at)) AS r (release, at)
                                                 WHERE r.release IS NOT NULL ORDER BY r.at DESC LIMIT 1)
       FROM unnest($1::bigint[], $2::integer[], $3::integer[], $4::timestamptz[], $5::timestamptz[], $6::text[], $7::timestamptz[], $8::text[], $9::timestamptz[], $10::boolean[])
         AS v (id, seen, users, last_seen, first_seen, first_release, first_release_at, last_release, last_release_at, unhandled)
       WHERE issues.id = v.id`,
      [ids, counts, users, lastSeen, firstSeen, firstReleases, firstReleasesAt, lastReleases, lastReleasesAt, unhandled],
    );
    const stats = [...buckets].map(([key, count]) => [...key.split('|'), count] as const);
    await tx.execute(
      `INSERT INTO issues.issue_stats (issue_id, resolution, bucket, count)
       SELECT v.issue_id, v.resolution, to_timestamp(v.bucket / 1000.0), v.count
       FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::bigint[]) AS v (issue_id, resolution, bucket, count)
       ON CONFLICT (issue_id, resolution, bucket) DO UPDATE SET count = issue_stats.count + EXCLUDED.count`,
      [stats.map((row) => row[0]), stats.map((row) => row[1]), stats.map((row) => row[2]), stats.map((row) => row[3])],
    );
  }

  /**
   * Counts the stored events' tags per issue. The issues' rows are locked in id order already, and
   * only a batch holding an issue's row writes its tag values, so concurrent batches cannot deadlock.
   */
  private async addTagValues(tx: Transaction, insertedByIssue: Map<string, IngestedEvent[]>): Promise<void> {
    const observed = new Map<string, { issueId: string; key: string; value: string; count: number; firstSeen: string; lastSeen: string }>();
    for (const [issueId, issueEvents] of insertedByIssue) {
      for (const event of issueEvents) {
        for (const [key, value] of event.tags) {
          const id = `${issueId}\u0000${key}\u0000${value}`;
          const tag = observed.get(id);
          if (!tag) {
            observed.set(id, { issueId, key, value, count: 1, firstSeen: event.occurredAt, lastSeen: event.occurredAt });
            continue;
          }
          tag.count++;
          if (event.occurredAt < tag.firstSeen) tag.firstSeen = event.occurredAt;
          if (event.occurredAt > tag.lastSeen) tag.lastSeen = event.occurredAt;
        }
      }
    }
    if (observed.size === 0) return;
    const tags = [...observed.values()];
    await tx.execute(
      `INSERT INTO issues.issue_tag_values (issue_id, key, value, times_seen, first_seen, last_seen)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::bigint[], $5::timestamptz[], $6::timestamptz[])
       ON CONFLICT (issue_id, key, value) DO UPDATE SET
         times_seen = issue_tag_values.times_seen + EXCLUDED.times_seen,
         first_seen = LEAST(issue_tag_values.first_seen, EXCLUDED.first_seen),
         last_seen = GREATEST(issue_tag_values.last_seen, EXCLUDED.last_seen)`,
      [
        tags.map((tag) => tag.issueId),
        tags.map((tag) => tag.key),
        tags.map((tag) => tag.value),
        tags.map((tag) => tag.count),
        tags.map((tag) => tag.firstSeen),
        tags.map((tag) => tag.lastSeen),
      ],
    );
  }

  private async createIssue(tx: Transaction, event: IngestedEvent): Promise<IssueRow> {
    const [{ last_number: number }] = await tx.query<{ last_number: number }>(
      `INSERT INTO issues.issue_counters (project_id, last_number) VALUES ($1, 1)
       ON CONFLICT (project_id) DO UPDATE SET last_number = issue_counters.last_number + 1 RETURNING last_number`,
      [event.projectId],
    );
    const shortId = shortIdFor(event.projectSlug, number);
    const level = (LEVELS.has(event.level) ? event.level : 'error') as IssueLevel;
    const [row] = await tx.query<IssueRow>(
      `INSERT INTO issues.issues (project_id, fingerprint_hash, short_id, title, culprit, level, platform, status, substatus, first_seen, last_seen, issue_type, first_exception)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'unresolved', 'new', $8, $8, $9, $10)
       RETURNING id, status`,
      [
        event.projectId,
        event.fingerprintHash,
        shortId,
        event.title,
        event.culprit,
        level,
        event.platform,
        event.occurredAt,
        event.issueType ?? 'error',
        mainException(event.data.exceptions),
      ],
    );
    await tx.execute(`INSERT INTO issues.issue_hashes (project_id, hash, issue_id) VALUES ($1, $2, $3)`, [event.projectId, event.fingerprintHash, row.id]);
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
    await this.assignToOwner(tx, aggregate, event);
    await this.issues.create(tx, aggregate);
    return row;
  }

  /**
   * "Auto Assign to Issue Owner": a new issue is assigned, by the system, to the first owner of the
   * ownership rule its first event matches (the last matching one in the project's rules).
   */
  private async assignToOwner(tx: Transaction, issue: Issue, event: IngestedEvent): Promise<void> {
    const ownership = await this.ownership.ownersOf(tx, event.projectId, ownershipSubjectOf(event.data, event.tags));
    const owner = ownership.autoAssignment ? ownership.owners[0] : undefined;
    if (owner) issue.assign(SYSTEM_ACTOR, event.receivedAt, { type: owner.type, id: owner.id, name: owner.name, email: owner.email });
  }

  /**
   * Stores the events, each with its tags as `key=value` (what an issue search asks of one event);
   * an event id seen before (an SDK retry) is stored and counted once. The stored events are
   * partitioned by time, so no unique key of theirs spans a project: the id is claimed in
   * `issues.event_ids` first (with the stored row's id, taken ahead), and only the first of a
   * batch's repeats is stored. The claims are partitioned by the day received too, so the key
   * holds that day: an id claimed the same day is caught by the key, one claimed the day before
   * by a look at that day alone. A retry within 24 hours of the first is thus always caught (up to
   * 48 hours, by the days they fall on); a later one is stored again (Sentry's own window is about
   * an hour).
   */
  private async insertEvents(tx: Transaction, events: readonly IngestedEvent[], issueIdOf: (event: IngestedEvent) => string): Promise<IngestedEvent[]> {
    const params: unknown[] = [];
    const values = events.map((event, position) => {
      const tags = [...new Set(event.tags.map(([key, value]) => `${key}=${value}`))];
      params.push(
        event.projectId,
        issueIdOf(event),
        event.eventId,
        event.occurredAt,
        event.receivedAt,
        JSON.stringify(event.data),
        event.unhandled ?? false,
        tags,
        event.fingerprintHash,
        event.userHash ?? null,
      );
      const at = params.length - 10;
      return `(${position}, $${at + 1}::bigint, $${at + 2}::bigint, $${at + 3}, $${at + 4}::timestamptz, $${at + 5}::timestamptz, $${at + 6}::json, $${at + 7}::boolean, $${at + 8}::text[], $${at + 9}, $${at + 10})`;
    });
    const rows = await tx.query<{ project_id: string; event_id: string }>(
      `WITH sent (position, project_id, issue_id, event_id, occurred_at, received_at, data, unhandled, tags, fingerprint_hash, user_hash) AS (VALUES ${values.join(', ')}),
       numbered AS (SELECT s.*, nextval(pg_get_serial_sequence('issues.error_events', 'id')) AS id FROM sent s),
       claimed AS (
         INSERT INTO issues.event_ids (project_id, event_id, claimed_on, received_at, id)
         SELECT DISTINCT ON (n.project_id, n.event_id) n.project_id, n.event_id, date_trunc('day', n.received_at, 'UTC'), n.received_at, n.id FROM numbered n
         WHERE NOT EXISTS (SELECT FROM issues.event_ids k WHERE k.project_id = n.project_id AND k.event_id = n.event_id
                             AND k.claimed_on = date_trunc('day', n.received_at, 'UTC') - interval '24 hours')
         ORDER BY n.project_id, n.event_id, n.position
         ON CONFLICT (project_id, event_id, claimed_on) DO NOTHING RETURNING id)
       INSERT INTO issues.error_events (id, project_id, issue_id, event_id, occurred_at, received_at, data, unhandled, tags, fingerprint_hash, user_hash) OVERRIDING SYSTEM VALUE
       SELECT n.id, n.project_id, n.issue_id, n.event_id, n.occurred_at, n.received_at, n.data, n.unhandled, n.tags, n.fingerprint_hash, n.user_hash
       FROM numbered n JOIN claimed c ON c.id = n.id
       RETURNING project_id, event_id`,
      params,
    );
    const stored = new Set(rows.map((row) => `${row.project_id}|${row.event_id}`));
    return events.filter((event) => stored.delete(`${event.projectId}|${event.eventId}`));
  }

  /** Answers, per issue, the users it had not seen before. */
  private async addUsers(tx: Transaction, insertedByIssue: Map<string, IngestedEvent[]>): Promise<Map<string, Set<string>>> {
    const issueIds: string[] = [];
    const hashes: string[] = [];
    for (const [issueId, issueEvents] of insertedByIssue) {
      for (const hash of new Set(issueEvents.map((event) => event.userHash).filter((hash): hash is string => !!hash))) {
        issueIds.push(issueId);
        hashes.push(hash);
      }
    }
    const newUsers = new Map<string, Set<string>>();
    if (hashes.length === 0) return newUsers;
    const rows = await tx.query<{ issue_id: string; user_hash: string }>(
      `INSERT INTO issues.issue_users (issue_id, user_hash) SELECT * FROM unnest($1::bigint[], $2::text[])
       ON CONFLICT DO NOTHING RETURNING issue_id, user_hash`,
      [issueIds, hashes],
    );
    for (const row of rows) {
      const issueId = String(row.issue_id);
      const users = newUsers.get(issueId);
      if (users) users.add(row.user_hash);
      else newUsers.set(issueId, new Set([row.user_hash]));
    }
    return newUsers;
  }
}

function groupKey(projectId: string, fingerprintHash: string): string {
  return `${projectId}|${fingerprintHash}`;
}
