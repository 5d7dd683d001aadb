import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import type { Issue } from '../../../domain';
import { IssueEventMovesRepository } from '../../../infrastructure/issue-event-moves.repository';
import { IssueMergesRepository } from '../../../infrastructure/issue-merges.repository';
import { IssueRepository } from '../../../infrastructure/issue.repository';
import { lockIssues } from '../../../infrastructure/lock-issues';
import { type MergedIssues, MergeIssuesCommand } from './merge-issues.command';

/**
 * As Sentry chooses, the issue seen most often (the newest of equals) is the primary. Each issue
 * records its side of the merge on its stream (the primary's activity shows `merge`); in the same
 * transaction the merged issues' hashes and ids go to the primary and a move of their events is
 * recorded. The events, users, tag values and counts then move in bounded steps, after the commit
 * and before the answer (a worker finishes what a crash leaves).
 */
@CommandHandler(MergeIssuesCommand)
export class MergeIssuesHandler implements ICommandHandler<MergeIssuesCommand, MergedIssues> {
  constructor(
    private readonly database: Database,
    private readonly issues: IssueRepository,
    private readonly merges: IssueMergesRepository,
    private readonly moves: IssueEventMovesRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ organizationId, issueIds, actor, projectId }: MergeIssuesCommand): Promise<MergedIssues> {
    const at = this.clock.now().toISOString();
    const { merged, moveIds } = await this.database.transaction(async (tx) => {
      const ids = await lockIssues(tx, organizationId, issueIds, projectId, 'UPDATE');
      if (ids.length < 2) throw DomainError.invalid('Give at least two issues to merge.');
      await this.moves.assertIdle(tx, ids);
      const rows = await this.merges.candidates(tx, ids);
      if (rows.some((row) => row.issue_type !== 'error')) throw DomainError.invalid('Only error issues can be merged.');
      if (new Set(rows.map((row) => row.project_id)).size > 1) throw DomainError.invalid('Merging across multiple projects is not supported');
      rows.sort((a, b) => compareDescending(BigInt(a.times_seen), BigInt(b.times_seen)) || compareDescending(BigInt(a.id), BigInt(b.id)));
      const [primaryId, ...childIds] = rows.map((row) => row.id);

      const primary = await this.load(tx, primaryId);
      const children = await Promise.all(childIds.map((id) => this.load(tx, id)));
      await this.issues.decide(tx, primaryId, (issue) => issue.absorb(actor, at, children), primary);
      for (const child of children) await this.issues.decide(tx, child.id, (issue) => issue.mergeInto(actor, at, primary), child);
      const moveIds: string[] = [];
      for (const childId of childIds) moveIds.push(await this.moves.enqueue(tx, { kind: 'merge', sourceIssueId: childId, targetIssueId: primaryId }, at));
      await this.merges.redirect(tx, primaryId, childIds);
      return { merged: { parent: primaryId, children: childIds }, moveIds };
    });
    for (const moveId of moveIds) await this.moves.complete(moveId);
    return merged;
  }

  private async load(tx: Parameters<IssueRepository['load']>[0], issueId: string): Promise<Issue> {
    const issue = await this.issues.load(tx, issueId);
    if (!issue) throw DomainError.notFound();
    return issue;
  }
}

function compareDescending(a: bigint, b: bigint): number {
  return a === b ? 0 : a > b ? -1 : 1;
}
