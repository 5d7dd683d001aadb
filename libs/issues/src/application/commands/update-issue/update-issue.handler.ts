import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, DomainError } from '@faultline/kernel';
import { Database, type Sql } from '@faultline/platform';
import {
  type IgnoreOptions,
  ignoredSubstatus,
  ignoreStatusDetails,
  type Issue,
  type IssueActor,
  type IssueAssignee,
  resolvedStatusDetails,
  type ResolveOptions,
} from '../../../domain';
import { IssueRepository } from '../../../infrastructure/issue.repository';
import { latestProjectRelease, projectHasRelease } from '../../../infrastructure/project-releases.repository';
import { IssuePeople } from '../../../infrastructure/issue-people.repository';
import { lockIssues } from '../../../infrastructure/lock-issues';
import { type IssueChanges, type IssueChangesResult, UpdateIssueCommand } from './update-issue.command';

type ResolveIntent = { readonly kind: 'resolve'; readonly inRelease?: string; readonly inNextRelease: boolean };
type StatusIntent = ResolveIntent | { readonly kind: 'unresolve' } | ({ readonly kind: 'ignore' } & IgnoreOptions);

const MINUTE_MS = 60_000;

/**
 * Resolves, unresolves, ignores, assigns and unassigns issues through the Issue aggregate, in one
 * transaction for all of them. A change to what an issue already is (resolving a resolved issue)
 * is left alone, as Sentry answers it: 200 and nothing recorded.
 */
@CommandHandler(UpdateIssueCommand)
export class UpdateIssueHandler implements ICommandHandler<UpdateIssueCommand, IssueChangesResult> {
  constructor(
    private readonly database: Database,
    private readonly issues: IssueRepository,
    private readonly people: IssuePeople,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ organizationId, issueIds, changes, actor, projectId }: UpdateIssueCommand): Promise<IssueChangesResult> {
    const at = this.clock.now().toISOString();
    const intent = statusIntent(changes, at);
    const assignee =
      changes.assignedTo === undefined
        ? undefined
        : changes.assignedTo === null || changes.assignedTo.trim() === ''
          ? null
          : await this.people.resolveAssignee(organizationId, changes.assignedTo);

    let resolution: ResolveOptions = {};
    await this.database.transaction(async (tx) => {
      const issues: Issue[] = [];
      for (const issueId of await lockIssues(tx, organizationId, issueIds, projectId)) {
        const issue = await this.issues.load(tx, issueId);
        if (!issue) throw DomainError.notFound();
        issues.push(issue);
      }
      if (intent?.kind === 'resolve') resolution = await resolutionOf(tx, intent, issues);
      for (const loaded of issues) {
        await this.issues.decide(
          tx,
          loaded.id,
          (issue) => {
            if (intent) applyStatus(issue, intent, resolution, actor, at);
            if (assignee !== undefined) applyAssignee(issue, assignee, actor, at);
          },
          loaded,
        );
      }
    });
    return result(intent, assignee, resolution);
  }
}

/**
 * A release resolution is of one project, whose releases it names as Sentry checks them: a release
 * its events named, or `latest` and "next release" taken from its latest release.
 */
async function resolutionOf(sql: Sql, intent: ResolveIntent, issues: readonly Issue[]): Promise<ResolveOptions> {
  if (intent.inRelease === undefined && !intent.inNextRelease) return {};
  const projects = new Set(issues.map((issue) => issue.projectId));
  if (projects.size > 1) {
    throw DomainError.invalid(`Cannot set resolved in ${intent.inNextRelease ? 'next release' : 'release'} for multiple projects.`);
  }
  const [projectId] = projects;
  if (intent.inRelease !== undefined && intent.inRelease !== 'latest') {
    if (!(await projectHasRelease(sql, projectId, intent.inRelease))) throw DomainError.invalid('Unable to find the given release.');
    return { inRelease: intent.inRelease };
  }
  const latest = await latestProjectRelease(sql, projectId);
  if (latest === null) throw DomainError.invalid("No release data present in the system to form a basis for 'Next Release'");
  return intent.inNextRelease ? { inNextReleaseAfter: latest } : { inRelease: latest };
}

function statusIntent({ status, statusDetails: details = {} }: IssueChanges, at: string): StatusIntent | undefined {
  if (status === undefined) {
    if (Object.keys(details).length > 0) throw DomainError.invalid('statusDetails needs a status');
    return undefined;
  }
  switch (status) {
    case 'resolved':
    case 'resolvedInNextRelease': {
      if (details.inCommit !== undefined) throw DomainError.invalid('Resolving in a commit is not supported');
      // As in Sentry, the next release wins over a release named with it.
      const inNextRelease = status === 'resolvedInNextRelease' || details.inNextRelease === true;
      return { kind: 'resolve', inRelease: inNextRelease ? undefined : details.inRelease, inNextRelease };
    }
    case 'unresolved':
      return { kind: 'unresolve' };
    case 'ignored':
    case 'muted': {
      let until: string | undefined;
      if (details.ignoreUntil !== undefined) {
        const time = Date.parse(details.ignoreUntil);
        if (Number.isNaN(time)) throw DomainError.invalid('statusDetails.ignoreUntil must be an ISO 8601 timestamp');
        until = new Date(time).toISOString();
      } else if (details.ignoreDuration !== undefined) {
        until = new Date(Date.parse(at) + details.ignoreDuration * MINUTE_MS).toISOString();
      }
      return { kind: 'ignore', until, untilCount: details.ignoreCount, untilUserCount: details.ignoreUserCount };
    }
    default:
      throw DomainError.invalid(`Invalid status: ${String(status)}`);
  }
}

/** A change to what an issue already is raises nothing: the aggregate decides what is a change. */
function applyStatus(issue: Issue, intent: StatusIntent, resolution: ResolveOptions, actor: IssueActor, at: string): void {
  switch (intent.kind) {
    case 'resolve':
      return issue.resolve(actor, at, resolution);
    case 'unresolve':
      return issue.unresolve(actor, at);
    case 'ignore':
      return issue.ignore(actor, at, { until: intent.until, untilCount: intent.untilCount, untilUserCount: intent.untilUserCount });
  }
}

function applyAssignee(issue: Issue, assignee: IssueAssignee | null, actor: IssueActor, at: string): void {
  if (assignee === null) issue.unassign(actor, at);
  else issue.assign(actor, at, assignee);
}

function result(intent: StatusIntent | undefined, assignee: IssueAssignee | null | undefined, resolution: ResolveOptions): IssueChangesResult {
  const answer: IssueChangesResult = {};
  if (intent?.kind === 'resolve') {
    answer.status = 'resolved';
    answer.substatus = null;
    answer.statusDetails = resolvedStatusDetails(resolution);
  } else if (intent?.kind === 'unresolve') {
    answer.status = 'unresolved';
    answer.substatus = 'ongoing';
    answer.statusDetails = {};
  } else if (intent?.kind === 'ignore') {
    answer.status = 'ignored';
    answer.substatus = ignoredSubstatus(intent);
    answer.statusDetails = ignoreStatusDetails(intent);
  }
  if (assignee !== undefined) answer.assignedTo = assignee;
  return answer;
}
