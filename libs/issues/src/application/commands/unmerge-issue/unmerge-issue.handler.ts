import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { Issue, ISSUE_LEVELS, type IssueLevel, mainException, parseShortId } from '../../../domain';
import { IssueEventMovesRepository } from '../../../infrastructure/issue-event-moves.repository';
import { IssueMergesRepository } from '../../../infrastructure/issue-merges.repository';
import { IssueRepository } from '../../../infrastructure/issue.repository';
import { lockIssues } from '../../../infrastructure/lock-issues';
import { type UnmergedIssue, UnmergeIssueCommand } from './unmerge-issue.command';

const LEVELS: ReadonlySet<string> = new Set(ISSUE_LEVELS);

/**
 * One transaction decides: the source records `issues.IssueUnmerged` against its hashes, the new
 * issue (made from the earliest stored event of the hashes) is created with `issues.IssueUnmergedFrom`,
 * the hashes group into it from now on, and a move of their events is recorded. The events and
 * what is counted of them then move in bounded steps before the answer; a worker finishes what a
 * crash leaves.
 */
@CommandHandler(UnmergeIssueCommand)
export class UnmergeIssueHandler implements ICommandHandler<UnmergeIssueCommand, UnmergedIssue> {
  constructor(
    private readonly database: Database,
    private readonly issues: IssueRepository,
    private readonly merges: IssueMergesRepository,
    private readonly moves: IssueEventMovesRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ organizationId, issueId, hashes, actor }: UnmergeIssueCommand): Promise<UnmergedIssue> {
    const at = this.clock.now().toISOString();
    const { unmerged, moveId } = await this.database.transaction(async (tx) => {
      const [sourceId] = await lockIssues(tx, organizationId, [issueId]);
      await this.moves.assertIdle(tx, [sourceId]);
      const source = await this.issues.load(tx, sourceId);
      if (!source) throw DomainError.notFound();
      const [candidate] = await this.merges.candidates(tx, [sourceId]);
      if (candidate.issue_type !== 'error') throw DomainError.invalid('Only error issues can be unmerged.');
      const named = [...new Set(hashes)];
      const { id, number } = await this.merges.reserveIssue(tx, source.projectId);
      const destination = { issueId: id, shortId: `${parseShortId(source.shortId)?.prefix ?? 'ISSUE'}-${number}` };
      const issueHashes = await this.merges.allHashes(tx, sourceId);
      await this.issues.decide(tx, sourceId, (issue) => issue.unmerge(actor, at, { hashes: named, issueHashes, destination }), source);

      const { fingerprintHash } = source.toSnapshot();
      const seed = await this.merges.earliestEvent(tx, sourceId, fingerprintHash, named);
      if (!seed) throw DomainError.invalid('No stored event has these hashes (their events are past retention): there is nothing to unmerge.');
      const seenAt = seed.occurred_at.toISOString();
      const level = (seed.level && LEVELS.has(seed.level) ? seed.level : 'error') as IssueLevel;
      const made = {
        issueId: id,
        projectId: source.projectId,
        organizationId: source.organizationId,
        shortId: destination.shortId,
        title: seed.title || 'Unmerged issue',
        culprit: seed.culprit ?? '',
        level,
        platform: seed.platform || 'other',
        fingerprintHash: named[0],
        firstSeen: seenAt,
        firstEventId: seed.event_id,
      };
      await this.merges.insertIssue(tx, { ...made, id, seenAt, issueType: candidate.issue_type, firstException: mainException(seed.exceptions) });
      await this.issues.create(tx, Issue.createByUnmerge(actor, at, made, source, named));
      await this.merges.moveHashes(tx, sourceId, id, named);
      const moveId = await this.moves.enqueue(tx, { kind: 'unmerge', sourceIssueId: sourceId, targetIssueId: id, hashes: named }, at);
      return { unmerged: destination, moveId };
    });
    if (moveId) await this.moves.complete(moveId);
    return unmerged;
  }
}
