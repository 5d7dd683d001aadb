import { Injectable } from '@nestjs/common';
import { sha256Hex } from '@faultline/kernel';
import type { Transaction } from '@faultline/platform';
import { type IssueOccurrence, IssueOccurrences, type OccurrenceIssueType, type RecordedOccurrence } from '../contracts/issue-occurrences';
import { SYSTEM_ACTOR } from '../domain';
import { IssueIngestionService } from './issue-ingestion.service';
import { IssueRepository } from './issue.repository';

/** An occurrence group's fingerprint: its own hash space, apart from events' grouping hashes. */
const occurrenceFingerprint = (issueType: OccurrenceIssueType, groupKey: string): string =>
  sha256Hex(`occurrence\u0000${issueType}\u0000${groupKey}`).slice(0, 32);

/** Occurrences are stored as events of their issue, through the same grouping as SDK events. */
@Injectable()
export class IssueOccurrencesService extends IssueOccurrences {
  constructor(
    private readonly ingestion: IssueIngestionService,
    private readonly issues: IssueRepository,
  ) {
    super();
  }

  async record(tx: Transaction, occurrence: IssueOccurrence): Promise<RecordedOccurrence | null> {
    const [recorded] = await this.ingestion.recordEvents(tx, [
      {
        projectId: occurrence.projectId,
        projectSlug: occurrence.projectSlug,
        organizationId: occurrence.organizationId,
        eventId: occurrence.eventId,
        fingerprintHash: occurrenceFingerprint(occurrence.issueType, occurrence.groupKey),
        issueType: occurrence.issueType,
        title: occurrence.title,
        culprit: occurrence.culprit,
        level: occurrence.level,
        platform: 'other',
        occurredAt: occurrence.occurredAt,
        receivedAt: occurrence.receivedAt,
        tags: [['level', occurrence.level], ['environment', occurrence.environment], ...occurrence.tags],
        data: {
          eventId: occurrence.eventId,
          timestamp: occurrence.occurredAt,
          title: occurrence.title,
          message: occurrence.culprit,
          culprit: occurrence.culprit,
          level: occurrence.level,
          platform: 'other',
          environment: occurrence.environment,
          tags: occurrence.tags.map(([key, value]) => [key, value]),
          contexts: occurrence.contexts,
        },
      },
    ]);
    return recorded ? { issueId: recorded.issueId, isNewIssue: recorded.isNewIssue } : null;
  }

  async resolve(tx: Transaction, projectId: string, issueType: OccurrenceIssueType, groupKey: string, at: string): Promise<string | null> {
    const [row] = await tx.query<{ id: string }>(`SELECT issue_id AS id FROM issues.issue_hashes WHERE project_id = $1 AND hash = $2`, [
      projectId,
      occurrenceFingerprint(issueType, groupKey),
    ]);
    if (!row) return null;
    await this.issues.decide(tx, String(row.id), (issue) => {
      if (issue.status !== 'resolved') issue.resolve(SYSTEM_ACTOR, at);
    });
    return String(row.id);
  }
}
