import { AggregateRoot, DomainError } from '@faultline/kernel';
import {
  commentAdded,
  commentDeleted,
  commentEdited,
  ISSUE_LEVELS,
  IssueActor,
  IssueActorType,
  IssueAssignee,
  issueAssigned,
  IssueAssigneeType,
  IssueCreatedData,
  issueCreated,
  IssueEvent,
  IssueEventBase,
  IssueEventTypes,
  ignoredSubstatus,
  issueIgnored,
  IssueLevel,
  issueResolved,
  issueUnassigned,
  issueUnresolved,
  issueMergedInto,
  issuesMerged,
  issueUnmerged,
  issueUnmergedFrom,
  type MergedIssueRef,
  SYSTEM_ACTOR,
  unresolvedSubstatus,
} from './issue.events';
import { isOlderRelease } from './release-order';
import { isShortId } from './short-id';

export type IssueStatus = 'unresolved' | 'resolved' | 'ignored';

/**
 * Sentry's substatus names: unresolved issues are `new`, `ongoing`, `regressed` or `escalating`
 * (back because what it was ignored until happened); ignored (archived) issues are
 * `archived_forever` or `archived_until_condition_met`; resolved issues have none (`null`).
 * Sentry's time-based `new` → `ongoing` after 7 days is a read-model concern.
 */
export type IssueSubstatus = 'new' | 'ongoing' | 'regressed' | 'escalating' | 'archived_forever' | 'archived_until_condition_met';

export interface IssueResolution {
  readonly resolvedAt: string;
  readonly inRelease?: string;
  readonly inNextReleaseAfter?: string;
}

export interface IssueIgnoreConditions {
  readonly ignoredAt: string;
  /** Unignore once an event arrives at or after this ISO 8601 time. */
  readonly until?: string;
  /** Unignore once this many events have arrived since the issue was ignored. */
  readonly untilCount?: number;
  /** Unignore once this many users not seen before have been affected since the issue was ignored. */
  readonly untilUserCount?: number;
}

/** What the issue has seen since it was ignored, the new event included. */
export interface SinceIgnored {
  readonly events: number;
  /** Users the issue had not seen before. */
  readonly users: number;
}

/** What the infrastructure knows of a new event beyond its time and id. */
export interface NewEventContext {
  /** The release the event came from, if the SDK named one. */
  readonly release?: string;
  /** Counts since the ignore, for an ignored issue. */
  readonly sinceIgnored?: SinceIgnored;
}

export interface IssueComment {
  readonly id: string;
  readonly text: string;
  readonly authorId: string;
  readonly authorType: IssueActorType;
  readonly authorName: string;
  readonly createdAt: string;
  readonly editedAt?: string;
  readonly deleted: boolean;
  readonly deletedAt?: string;
}

/** A plain, JSON-safe copy of the aggregate's state (for tests, debugging and snapshots). */
export interface IssueSnapshot {
  readonly id: string;
  readonly projectId: string;
  readonly organizationId: string;
  readonly shortId: string;
  readonly title: string;
  readonly culprit: string;
  readonly level: IssueLevel;
  readonly platform: string;
  readonly fingerprintHash: string;
  readonly firstSeen: string;
  readonly firstEventId: string;
  readonly createdAt: string;
  readonly status: IssueStatus;
  readonly substatus: IssueSubstatus | null;
  readonly resolution: IssueResolution | null;
  readonly ignoreConditions: IssueIgnoreConditions | null;
  readonly assignee: IssueAssignee | null;
  /** In the order the comments were added, deleted ones included (flagged `deleted`). */
  readonly comments: readonly IssueComment[];
  readonly version: number;
}

/** What a new issue is made of (the first event of a new group). */
export interface NewIssue {
  readonly issueId: string;
  readonly projectId: string;
  readonly organizationId: string;
  readonly shortId: string;
  readonly title: string;
  readonly culprit: string;
  readonly level: IssueLevel;
  readonly platform: string;
  readonly fingerprintHash: string;
  readonly firstSeen: string;
  readonly firstEventId: string;
}

/** A plain resolution, one in a release, or one in the release after the project's latest. */
export interface ResolveOptions {
  readonly inRelease?: string;
  readonly inNextReleaseAfter?: string;
}

export interface IgnoreOptions {
  readonly until?: string;
  readonly untilCount?: number;
  readonly untilUserCount?: number;
}

/** An unmerge: which of the issue's hashes go, the issue's hashes now, and the new issue they go to. */
export interface UnmergeRequest {
  readonly hashes: readonly string[];
  readonly issueHashes: readonly string[];
  readonly destination: MergedIssueRef;
}

export const MAX_COMMENT_LENGTH = 5000;
/** Hashes one unmerge may name: Sentry's hashes page shows 100 at most. */
export const MAX_UNMERGE_HASHES = 100;

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;
const ACTOR_TYPES: ReadonlySet<string> = new Set<IssueActorType>(['user', 'application', 'system']);
const ASSIGNEE_TYPES: ReadonlySet<string> = new Set<IssueAssigneeType>(['user', 'team']);
const LEVELS: ReadonlySet<string> = new Set<string>(ISSUE_LEVELS);

/**
 * An error-tracking issue (Sentry "group"). Decision methods validate, then `raise` events;
 * `evolve` is the only place state changes, both when deciding and when replaying history.
 * Time and ids always come in through the method arguments.
 */
export class Issue extends AggregateRoot<IssueEvent> {
  private created = false;
  private issueId = '';
  private details!: Omit<NewIssue, 'issueId'> & { readonly createdAt: string };
  private currentStatus: IssueStatus = 'unresolved';
  private currentSubstatus: IssueSubstatus | null = null;
  private currentResolution: IssueResolution | null = null;
  private currentIgnore: IssueIgnoreConditions | null = null;
  private currentAssignee: IssueAssignee | null = null;
  private readonly commentsById = new Map<string, IssueComment>();
  private mergedIntoRef: MergedIssueRef | null = null;

  private constructor() {
    super();
  }

  // ---- construction ------------------------------------------------------------------------

  /** Decides to create an issue; the returned aggregate holds one pending IssueCreated. */
  static create(actor: IssueActor, at: string, issue: NewIssue): Issue {
    assertActor(actor);
    assertTimestamp(at, 'at');
    assertNonEmpty(issue.issueId, 'issueId');
    assertNonEmpty(issue.projectId, 'projectId');
    assertNonEmpty(issue.organizationId, 'organizationId');
    if (typeof issue.shortId !== 'string' || !isShortId(issue.shortId)) {
      throw DomainError.invalid(`"${String(issue.shortId)}" is not a valid short id (expected e.g. "WEB-3")`);
    }
    assertNonEmpty(issue.title, 'title');
    if (typeof issue.culprit !== 'string') throw DomainError.invalid('culprit must be a string');
    if (!LEVELS.has(issue.level)) {
      throw DomainError.invalid(`level must be one of ${ISSUE_LEVELS.join(', ')}`, { level: issue.level });
    }
    assertNonEmpty(issue.platform, 'platform');
    assertNonEmpty(issue.fingerprintHash, 'fingerprintHash');
    assertTimestamp(issue.firstSeen, 'firstSeen');
    assertNonEmpty(issue.firstEventId, 'firstEventId');

    const aggregate = new Issue();
    const data: IssueCreatedData = {
      issueId: issue.issueId,
      projectId: issue.projectId,
      organizationId: issue.organizationId,
      actor: copyActor(actor),
      at,
      shortId: issue.shortId,
      title: issue.title,
      culprit: issue.culprit,
      level: issue.level,
      platform: issue.platform,
      fingerprintHash: issue.fingerprintHash,
      firstSeen: issue.firstSeen,
      firstEventId: issue.firstEventId,
    };
    aggregate.raise(issueCreated(data));
    return aggregate;
  }

  /**
   * Decides to create the new issue of an unmerge: it is created (an ordinary new issue, with the
   * first unmerged hash as its own) and takes the hashes from `source`, which records its side
   * with `unmerge`.
   */
  static createByUnmerge(actor: IssueActor, at: string, issue: NewIssue, source: Issue, hashes: readonly string[]): Issue {
    source.assertLive();
    if (issue.projectId !== source.projectId) throw DomainError.invalid('An unmerged issue stays in its project');
    if (issue.issueId === source.id) throw DomainError.invalid('An issue cannot be unmerged into itself');
    const aggregate = Issue.create(actor, at, issue);
    aggregate.raise(issueUnmergedFrom({ ...aggregate.base(actor, at), hashes: [...hashes], source: { issueId: source.id, shortId: source.shortId } }));
    return aggregate;
  }

  /** Rebuilds an issue from its stream; an empty stream is an issue that does not exist. */
  static fromHistory(history: readonly IssueEvent[]): Issue {
    if (history.length === 0) throw DomainError.notFound('The requested issue does not exist');
    return new Issue().loadFromHistory(history);
  }

  // ---- decisions ---------------------------------------------------------------------------
  // A command that would change nothing raises nothing and is no error; bad input and refused
  // changes throw a DomainError.

  /** Resolves the issue; resolving it again the same way raises nothing. */
  resolve(actor: IssueActor, at: string, options: ResolveOptions = {}): void {
    this.assertCommand(actor, at);
    const { inRelease, inNextReleaseAfter } = options;
    if (inRelease !== undefined) assertNonEmpty(inRelease, 'inRelease');
    if (inNextReleaseAfter !== undefined) assertNonEmpty(inNextReleaseAfter, 'inNextReleaseAfter');
    if (inRelease !== undefined && inNextReleaseAfter !== undefined) {
      throw DomainError.invalid('An issue is resolved in a release or in the next release, not both');
    }
    // Resolving again in another release replaces the resolution.
    if (this.isResolvedAs(options)) return;
    this.raise(issueResolved({ ...this.base(actor, at), inRelease, inNextReleaseAfter }));
  }

  /** Unresolves (or unignores) the issue; unresolving an unresolved issue raises nothing. */
  unresolve(actor: IssueActor, at: string): void {
    this.assertCommand(actor, at);
    if (this.currentStatus === 'unresolved') return;
    this.raise(issueUnresolved({ ...this.base(actor, at), reason: 'manual' }));
  }

  /**
   * Ignores (archives) the issue, forever or until a time, a number of further events and/or a
   * number of further users, whichever comes first. Ignoring an ignored issue with different
   * conditions replaces them; with the same count conditions it starts the counts again (as
   * Sentry does); with the same other conditions it raises nothing (even if their time has passed
   * without an event to end the ignore).
   */
  ignore(actor: IssueActor, at: string, options: IgnoreOptions = {}): void {
    this.assertCommand(actor, at);
    const { until, untilCount, untilUserCount } = options;
    if (until !== undefined) assertTimestamp(until, 'until');
    if (untilCount !== undefined && (!Number.isSafeInteger(untilCount) || untilCount < 1)) {
      throw DomainError.invalid('untilCount must be a positive integer', { untilCount });
    }
    if (untilUserCount !== undefined && (!Number.isSafeInteger(untilUserCount) || untilUserCount < 1)) {
      throw DomainError.invalid('untilUserCount must be a positive integer', { untilUserCount });
    }
    if (
      this.currentStatus === 'ignored' &&
      this.currentIgnore?.until === until &&
      this.currentIgnore?.untilCount === untilCount &&
      this.currentIgnore?.untilUserCount === untilUserCount &&
      untilCount === undefined &&
      untilUserCount === undefined
    ) {
      return;
    }
    if (until !== undefined && Date.parse(until) <= Date.parse(at)) {
      throw DomainError.invalid('An issue can only be ignored until a time in the future', { until, at });
    }
    this.raise(issueIgnored({ ...this.base(actor, at), until, untilCount, untilUserCount }));
  }

  /** Assigns to a user or team; assigning the current assignee again raises nothing. */
  assign(actor: IssueActor, at: string, assignee: IssueAssignee): void {
    this.assertCommand(actor, at);
    if (!assignee || !ASSIGNEE_TYPES.has(assignee.type)) {
      throw DomainError.invalid('An assignee must be a user or a team');
    }
    assertNonEmpty(assignee.id, 'assignee id');
    if (assignee.name !== undefined && typeof assignee.name !== 'string') throw DomainError.invalid('assignee name must be a string');
    if (assignee.email !== undefined && typeof assignee.email !== 'string') throw DomainError.invalid('assignee email must be a string');
    const current = this.currentAssignee;
    if (current && current.type === assignee.type && current.id === assignee.id) return;
    const copy: IssueAssignee = { type: assignee.type, id: assignee.id, name: assignee.name, email: assignee.email };
    this.raise(issueAssigned({ ...this.base(actor, at), assignee: copy }));
  }

  /** Clears the assignee; unassigning an unassigned issue raises nothing. */
  unassign(actor: IssueActor, at: string): void {
    this.assertCommand(actor, at);
    if (!this.currentAssignee) return;
    this.raise(issueUnassigned(this.base(actor, at)));
  }

  addComment(actor: IssueActor, at: string, commentId: string, text: string): void {
    this.assertCommand(actor, at);
    assertNonEmpty(commentId, 'commentId');
    assertCommentText(text);
    if (this.commentsById.has(commentId)) {
      throw DomainError.conflict(`Comment ${commentId} already exists`, { commentId });
    }
    this.raise(commentAdded({ ...this.base(actor, at), commentId, text }));
  }

  /** Only the author may edit; a deleted comment cannot be edited; unchanged text raises nothing. */
  editComment(actor: IssueActor, at: string, commentId: string, text: string): void {
    this.assertCommand(actor, at);
    const comment = this.liveComment(commentId);
    assertAuthor(actor, comment, 'edit');
    assertCommentText(text);
    if (comment.text === text) return;
    this.raise(commentEdited({ ...this.base(actor, at), commentId, text }));
  }

  /** Only the author may delete (as in Sentry); deleting a deleted comment is "not found". */
  deleteComment(actor: IssueActor, at: string, commentId: string): void {
    this.assertCommand(actor, at);
    const comment = this.liveComment(commentId);
    assertAuthor(actor, comment, 'delete');
    this.raise(commentDeleted({ ...this.base(actor, at), commentId }));
  }

  /**
   * Merges other issues of the same project into this one (the primary): their events and
   * fingerprints become this issue's. Each of them records its side with `mergeInto`.
   */
  absorb(actor: IssueActor, at: string, children: readonly Issue[]): void {
    this.assertCommand(actor, at);
    if (children.length === 0) throw DomainError.invalid('A merge needs at least one other issue');
    const ids = new Set<string>();
    for (const child of children) {
      this.assertMergeable(child);
      if (ids.has(child.id)) throw DomainError.invalid(`Issue ${child.id} is named twice`);
      ids.add(child.id);
    }
    const refs = children.map((child) => ({ issueId: child.id, shortId: child.shortId }));
    this.raise(issuesMerged({ ...this.base(actor, at), children: refs }));
  }

  /** This issue was merged into `primary`: from now on it is only a redirect to it. */
  mergeInto(actor: IssueActor, at: string, primary: Issue): void {
    this.assertCommand(actor, at);
    primary.assertMergeable(this);
    this.raise(issueMergedInto({ ...this.base(actor, at), parent: { issueId: primary.id, shortId: primary.shortId } }));
  }

  /**
   * Sentry's unmerge: the named fingerprint hashes (each one of this issue's) and their events go
   * to a new issue, all of them to the same one. The issue keeps at least one hash.
   */
  unmerge(actor: IssueActor, at: string, { hashes, issueHashes, destination }: UnmergeRequest): void {
    this.assertCommand(actor, at);
    const named = [...new Set(hashes)];
    if (named.length === 0) throw DomainError.invalid('Name at least one hash to unmerge');
    if (named.length > MAX_UNMERGE_HASHES) throw DomainError.invalid(`At most ${MAX_UNMERGE_HASHES} hashes can be unmerged at once`);
    const own = new Set(issueHashes);
    const foreign = named.find((hash) => !own.has(hash));
    if (foreign !== undefined) throw DomainError.invalid(`${foreign} is not a hash of this issue`, { hash: foreign });
    if (named.length >= own.size) throw DomainError.invalid('An issue keeps at least one of its hashes: unmerge fewer');
    assertNonEmpty(destination?.issueId, 'destination issueId');
    if (destination.issueId === this.issueId) throw DomainError.invalid('An issue cannot be unmerged into itself');
    this.raise(issueUnmerged({ ...this.base(actor, at), hashes: named, destination: { issueId: destination.issueId, shortId: destination.shortId } }));
  }

  private assertMergeable(other: Issue): void {
    other.assertCreated();
    if (other.mergedIntoRef) throw DomainError.invalid(`Issue ${other.id} was already merged`);
    if (other.id === this.issueId) throw DomainError.invalid('An issue cannot be merged into itself');
    if (other.projectId !== this.projectId) throw DomainError.invalid('Merging across multiple projects is not supported');
  }

  /**
   * A new event was grouped into this issue. A resolved issue regresses (for one resolved in a
   * release, as Sentry decides: not for an event without a release or from an older release); an
   * ignored issue whose `until` has been reached (at >= until), or whose `untilCount` or
   * `untilUserCount` has been reached by what it has seen since the ignore (this event included),
   * is unignored. Otherwise nothing is raised: per-event counters (count, lastSeen) are read
   * models, not events.
   */
  recordNewEvent(at: string, eventId: string, { release, sinceIgnored }: NewEventContext = {}): void {
    this.assertLive();
    assertTimestamp(at, 'at');
    assertNonEmpty(eventId, 'eventId');
    for (const [name, value] of Object.entries(sinceIgnored ?? {})) {
      if (!Number.isSafeInteger(value) || value < 0) {
        throw DomainError.invalid(`sinceIgnored.${name} must be a non-negative integer`, { [name]: value });
      }
    }

    if (this.currentStatus === 'resolved') {
      if (!this.stillResolvedFor(release)) this.raise(issueUnresolved({ ...this.base(SYSTEM_ACTOR, at), reason: 'regression', eventId }));
      return;
    }
    if (this.currentStatus === 'ignored' && this.currentIgnore) {
      const { until, untilCount, untilUserCount } = this.currentIgnore;
      const timeReached = until !== undefined && Date.parse(at) >= Date.parse(until);
      const countReached = untilCount !== undefined && sinceIgnored !== undefined && sinceIgnored.events >= untilCount;
      const usersReached = untilUserCount !== undefined && sinceIgnored !== undefined && sinceIgnored.users >= untilUserCount;
      if (timeReached || countReached || usersReached) {
        this.raise(issueUnresolved({ ...this.base(SYSTEM_ACTOR, at), reason: 'ignore_expired', eventId }));
      }
    }
  }

  /** Whether the issue is resolved exactly so: plainly, in this release, or in the one after it. */
  isResolvedAs({ inRelease, inNextReleaseAfter }: ResolveOptions): boolean {
    const current = this.currentResolution;
    return this.currentStatus === 'resolved' && current?.inRelease === inRelease && current?.inNextReleaseAfter === inNextReleaseAfter;
  }

  /**
   * Resolved in a release, the issue stays resolved for events that come from before it: without
   * a release (taken, as Sentry does, to predate releases), or from a release that is older by
   * its semantic version. An event from the release itself, a newer one, or one whose order
   * cannot be told is a regression. Resolved in the next release, it also stays resolved for the
   * release that was the latest then: the fix ships after it.
   */
  private stillResolvedFor(release: string | undefined): boolean {
    const { inRelease, inNextReleaseAfter } = this.currentResolution ?? {};
    if (inRelease === undefined && inNextReleaseAfter === undefined) return false;
    if (!release) return true;
    if (inRelease !== undefined) return release !== inRelease && isOlderRelease(release, inRelease) === true;
    return release === inNextReleaseAfter || isOlderRelease(release, inNextReleaseAfter as string) === true;
  }

  // ---- state -------------------------------------------------------------------------------

  protected override evolve(event: IssueEvent): void {
    if (event.type !== IssueEventTypes.IssueCreated && !this.created) {
      throw new Error(`Cannot apply ${event.type} before issues.IssueCreated`);
    }
    switch (event.type) {
      case IssueEventTypes.IssueCreated: {
        if (this.created) throw new Error(`Issue ${this.issueId} was already created`);
        const { issueId, actor: _actor, at, ...details } = event.data;
        this.created = true;
        this.issueId = issueId;
        this.details = { ...details, createdAt: at };
        this.currentStatus = 'unresolved';
        this.currentSubstatus = 'new';
        break;
      }
      case IssueEventTypes.IssueResolved:
        this.currentStatus = 'resolved';
        this.currentSubstatus = null;
        this.currentResolution = withoutUndefined({
          resolvedAt: event.data.at,
          inRelease: event.data.inRelease,
          inNextReleaseAfter: event.data.inNextReleaseAfter,
        });
        this.currentIgnore = null;
        break;
      case IssueEventTypes.IssueUnresolved:
        this.currentStatus = 'unresolved';
        this.currentSubstatus = unresolvedSubstatus(event.data.reason);
        this.currentResolution = null;
        this.currentIgnore = null;
        break;
      case IssueEventTypes.IssueIgnored: {
        const { at, until, untilCount, untilUserCount } = event.data;
        this.currentStatus = 'ignored';
        this.currentSubstatus = ignoredSubstatus(event.data);
        this.currentIgnore = withoutUndefined({ ignoredAt: at, until, untilCount, untilUserCount });
        this.currentResolution = null;
        break;
      }
      case IssueEventTypes.IssueAssigned: {
        const { type, id, name, email } = event.data.assignee;
        this.currentAssignee = withoutUndefined({ type, id, name, email });
        break;
      }
      case IssueEventTypes.IssueUnassigned:
        this.currentAssignee = null;
        break;
      case IssueEventTypes.CommentAdded: {
        const { commentId, text, actor, at } = event.data;
        this.commentsById.set(commentId, {
          id: commentId,
          text,
          authorId: actor.id,
          authorType: actor.type,
          authorName: actor.name,
          createdAt: at,
          deleted: false,
        });
        break;
      }
      case IssueEventTypes.CommentEdited: {
        const comment = this.storedComment(event.data.commentId, event.type);
        this.commentsById.set(comment.id, { ...comment, text: event.data.text, editedAt: event.data.at });
        break;
      }
      case IssueEventTypes.CommentDeleted: {
        const comment = this.storedComment(event.data.commentId, event.type);
        this.commentsById.set(comment.id, { ...comment, deleted: true, deletedAt: event.data.at });
        break;
      }
      case IssueEventTypes.IssuesMerged:
      case IssueEventTypes.IssueUnmerged:
      case IssueEventTypes.IssueUnmergedFrom:
        break;
      case IssueEventTypes.IssueMergedInto:
        this.mergedIntoRef = { issueId: event.data.parent.issueId, shortId: event.data.parent.shortId };
        break;
      default: {
        const unknown: never = event;
        throw new Error(`Unknown issue event ${(unknown as IssueEvent).type}`);
      }
    }
  }

  // ---- reads -------------------------------------------------------------------------------

  get id(): string {
    return this.issueId;
  }
  get projectId(): string {
    return this.details.projectId;
  }
  get organizationId(): string {
    return this.details.organizationId;
  }
  get shortId(): string {
    return this.details.shortId;
  }
  get status(): IssueStatus {
    return this.currentStatus;
  }
  get substatus(): IssueSubstatus | null {
    return this.currentSubstatus;
  }
  get resolution(): IssueResolution | null {
    return this.currentResolution;
  }
  get ignoreConditions(): IssueIgnoreConditions | null {
    return this.currentIgnore;
  }
  get assignee(): IssueAssignee | null {
    return this.currentAssignee;
  }
  /** The issue this one was merged into, if it was. */
  get mergedInto(): MergedIssueRef | null {
    return this.mergedIntoRef;
  }

  /** A comment by id, deleted ones included; undefined if there never was one. */
  comment(commentId: string): IssueComment | undefined {
    return this.commentsById.get(commentId);
  }

  /** Comments in the order they were added, deleted ones included. */
  get comments(): readonly IssueComment[] {
    return [...this.commentsById.values()];
  }

  toSnapshot(): IssueSnapshot {
    this.assertCreated();
    const snapshot: IssueSnapshot = {
      id: this.issueId,
      ...this.details,
      status: this.currentStatus,
      substatus: this.currentSubstatus,
      resolution: this.currentResolution,
      ignoreConditions: this.currentIgnore,
      assignee: this.currentAssignee,
      comments: this.comments,
      version: this.version,
    };
    return JSON.parse(JSON.stringify(snapshot)) as IssueSnapshot;
  }

  // ---- helpers -----------------------------------------------------------------------------

  private base(actor: IssueActor, at: string): IssueEventBase {
    return {
      issueId: this.issueId,
      projectId: this.details.projectId,
      organizationId: this.details.organizationId,
      actor: copyActor(actor),
      at,
    };
  }

  private assertCreated(): void {
    if (!this.created) throw DomainError.notFound('The requested issue does not exist');
  }

  /** A merged issue takes no more commands or events: it is only a redirect to its primary. */
  private assertLive(): void {
    this.assertCreated();
    if (this.mergedIntoRef) throw DomainError.notFound(`The issue was merged into issue ${this.mergedIntoRef.issueId}`);
  }

  private assertCommand(actor: IssueActor, at: string): void {
    this.assertLive();
    assertActor(actor);
    assertTimestamp(at, 'at');
  }

  private liveComment(commentId: string): IssueComment {
    assertNonEmpty(commentId, 'commentId');
    const comment = this.commentsById.get(commentId);
    if (!comment) throw DomainError.notFound(`Comment ${commentId} does not exist`);
    if (comment.deleted) throw DomainError.notFound(`Comment ${commentId} has been deleted`);
    return comment;
  }

  private storedComment(commentId: string, eventType: string): IssueComment {
    const comment = this.commentsById.get(commentId);
    if (!comment) throw new Error(`Cannot apply ${eventType}: comment ${commentId} was never added`);
    return comment;
  }
}

function assertNonEmpty(value: unknown, field: string): asserts value is string {
  if (typeof value !== 'string' || value.trim() === '') throw DomainError.invalid(`${field} must not be empty`);
}

function assertTimestamp(value: unknown, field: string): asserts value is string {
  if (typeof value !== 'string' || !ISO_TIMESTAMP.test(value) || Number.isNaN(Date.parse(value))) {
    throw DomainError.invalid(`${field} must be an ISO 8601 timestamp`, { [field]: value });
  }
}

function assertActor(actor: IssueActor): void {
  if (!actor || !ACTOR_TYPES.has(actor.type)) {
    throw DomainError.invalid('actor.type must be user, application or system');
  }
  assertNonEmpty(actor.id, 'actor.id');
  if (typeof actor.name !== 'string') throw DomainError.invalid('actor.name must be a string');
}

function assertCommentText(text: unknown): asserts text is string {
  if (typeof text !== 'string' || text.trim() === '') throw DomainError.invalid('Comment text must not be empty');
  // Counted in characters (code points), not UTF-16 units, so an emoji counts once.
  const length = [...text].length;
  if (length > MAX_COMMENT_LENGTH) {
    throw DomainError.invalid(`Comment text must be at most ${MAX_COMMENT_LENGTH} characters`, { length });
  }
}

function assertAuthor(actor: IssueActor, comment: IssueComment, action: 'edit' | 'delete'): void {
  if (actor.type !== comment.authorType || actor.id !== comment.authorId) {
    throw DomainError.forbidden(`Only the author of a comment can ${action} it`);
  }
}

function copyActor(actor: IssueActor): IssueActor {
  return { type: actor.type, id: actor.id, name: actor.name };
}

function withoutUndefined<V extends object>(value: V): V {
  return Object.fromEntries(Object.entries(value).filter(([, inner]) => inner !== undefined)) as V;
}
