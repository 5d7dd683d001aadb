import { DomainEvent, domainEvent } from '@faultline/kernel';

/**
 * The Issue (a Sentry "group") is event-sourced: these facts are its stream. Type strings are
 * explicit and stable (never derived from a class name), every payload is JSON-safe (ISO strings,
 * no Date objects, no `undefined` values), and every payload carries who acted (`actor`) and when
 * (`at`), both supplied by the command so replay is deterministic.
 */
export const IssueEventTypes = {
  IssueCreated: 'issues.IssueCreated',
  IssueResolved: 'issues.IssueResolved',
  IssueUnresolved: 'issues.IssueUnresolved',
  IssueIgnored: 'issues.IssueIgnored',
  IssueAssigned: 'issues.IssueAssigned',
  IssueUnassigned: 'issues.IssueUnassigned',
  CommentAdded: 'issues.CommentAdded',
  CommentEdited: 'issues.CommentEdited',
  CommentDeleted: 'issues.CommentDeleted',
  IssuesMerged: 'issues.IssuesMerged',
  IssueMergedInto: 'issues.IssueMergedInto',
  IssueUnmerged: 'issues.IssueUnmerged',
  IssueUnmergedFrom: 'issues.IssueUnmergedFrom',
} as const;

export type IssueEventType = (typeof IssueEventTypes)[keyof typeof IssueEventTypes];

/** Every issue event is at schema version 1. */
export const ISSUE_EVENT_SCHEMA_VERSION = 1;

export const ISSUE_STREAM_TYPE = 'issue';
export const issueStream = (issueId: string): string => `issue-${issueId}`;

export type IssueActorType = 'user' | 'application' | 'system';

/** Who did it; the shape of a Sentry webhook's `actor`. */
export type IssueActor = {
  readonly type: IssueActorType;
  readonly id: string;
  readonly name: string;
};

/**
 * The actor of changes nobody asked for (a regression, an expired ignore, grouping a new event).
 * Sentry's webhooks show such changes as `{"type": "application", "id": "sentry", "name": "Sentry"}`;
 * mapping `system` to that is the webhook layer's business.
 */
export const SYSTEM_ACTOR: IssueActor = Object.freeze({ type: 'system', id: 'system', name: 'Faultline' });

export const ISSUE_LEVELS = ['fatal', 'error', 'warning', 'info', 'debug'] as const;
export type IssueLevel = (typeof ISSUE_LEVELS)[number];

export type IssueAssigneeType = 'user' | 'team';

export type IssueAssignee = {
  readonly type: IssueAssigneeType;
  readonly id: string;
  readonly name?: string;
  readonly email?: string;
};

export type IssueUnresolvedReason = 'manual' | 'regression' | 'ignore_expired';

/** Sentry's substatus of an issue unresolved for this reason. */
export function unresolvedSubstatus(reason: IssueUnresolvedReason): 'ongoing' | 'regressed' | 'escalating' {
  return reason === 'regression' ? 'regressed' : reason === 'ignore_expired' ? 'escalating' : 'ongoing';
}

/** Carried by every issue event: which issue (and tenant) it concerns, who acted and when. */
export type IssueEventBase = {
  readonly issueId: string;
  readonly projectId: string;
  readonly organizationId: string;
  readonly actor: IssueActor;
  /** ISO 8601 time of the decision, supplied by the command. */
  readonly at: string;
};

export type IssueCreatedData = IssueEventBase & {
  /** e.g. "WEB-3"; see shortIdFor. */
  readonly shortId: string;
  readonly title: string;
  readonly culprit: string;
  readonly level: IssueLevel;
  readonly platform: string;
  readonly fingerprintHash: string;
  /** ISO 8601 timestamp of the first event (the event's own time, which may precede `at`). */
  readonly firstSeen: string;
  readonly firstEventId: string;
};

export type IssueResolvedData = IssueEventBase & {
  /** Resolved in this release version; absent for a plain resolution. */
  readonly inRelease?: string;
  /** Resolved in the next release after this one, the project's latest when it was resolved. */
  readonly inNextReleaseAfter?: string;
};

/** Sentry's `statusDetails` of a resolution: `{inRelease}`, `{inNextRelease: true}` or `{}`. */
export function resolvedStatusDetails(data: { readonly inRelease?: string; readonly inNextReleaseAfter?: string }): Record<string, string | boolean> {
  if (typeof data.inRelease === 'string') return { inRelease: data.inRelease };
  return typeof data.inNextReleaseAfter === 'string' ? { inNextRelease: true } : {};
}

export type IssueUnresolvedData = IssueEventBase & {
  readonly reason: IssueUnresolvedReason;
  /** The event that caused it (regression, ignore_expired); absent for a manual unresolve. */
  readonly eventId?: string;
};

export type IssueIgnoredData = IssueEventBase & {
  /** Ignored until this ISO 8601 time. */
  readonly until?: string;
  /** Ignored until this many more events have been received. */
  readonly untilCount?: number;
  /** Ignored until this many more users have been affected. */
  readonly untilUserCount?: number;
};

type IgnoreConditions = Pick<IssueIgnoredData, 'until' | 'untilCount' | 'untilUserCount'>;

/** Sentry's substatus of an issue ignored with these conditions. */
export function ignoredSubstatus(data: IgnoreConditions): 'archived_forever' | 'archived_until_condition_met' {
  return data.until === undefined && data.untilCount === undefined && data.untilUserCount === undefined ? 'archived_forever' : 'archived_until_condition_met';
}

/** Sentry's `statusDetails` of an ignored issue, from its ignore's conditions (the API, webhooks). */
export function ignoreStatusDetails(data: IgnoreConditions): Record<string, string | number> {
  return {
    ...(typeof data.until === 'string' ? { ignoreUntil: data.until } : {}),
    ...(typeof data.untilCount === 'number' ? { ignoreCount: data.untilCount } : {}),
    ...(typeof data.untilUserCount === 'number' ? { ignoreUserCount: data.untilUserCount } : {}),
  };
}

export type IssueAssignedData = IssueEventBase & {
  readonly assignee: IssueAssignee;
};

export type IssueUnassignedData = IssueEventBase;

export type CommentAddedData = IssueEventBase & {
  readonly commentId: string;
  readonly text: string;
};

export type CommentEditedData = IssueEventBase & {
  readonly commentId: string;
  readonly text: string;
};

export type CommentDeletedData = IssueEventBase & {
  readonly commentId: string;
};

/** Another issue, as a merge names it. */
export type MergedIssueRef = {
  readonly issueId: string;
  readonly shortId: string;
};

/** On the primary issue: these issues' events and fingerprints now belong to it. */
export type IssuesMergedData = IssueEventBase & {
  readonly children: readonly MergedIssueRef[];
};

/** On a merged issue: it now lives on as the primary issue (its id redirects there). */
export type IssueMergedIntoData = IssueEventBase & {
  readonly parent: MergedIssueRef;
};

/** On the source of an unmerge: these fingerprint hashes (and their events) went to a new issue. */
export type IssueUnmergedData = IssueEventBase & {
  readonly hashes: readonly string[];
  readonly destination: MergedIssueRef;
};

/** On the new issue of an unmerge, right after its creation: the hashes it took from the source. */
export type IssueUnmergedFromData = IssueEventBase & {
  readonly hashes: readonly string[];
  readonly source: MergedIssueRef;
};

type T = typeof IssueEventTypes;
export type IssueCreated = DomainEvent<T['IssueCreated'], IssueCreatedData>;
export type IssueResolved = DomainEvent<T['IssueResolved'], IssueResolvedData>;
export type IssueUnresolved = DomainEvent<T['IssueUnresolved'], IssueUnresolvedData>;
export type IssueIgnored = DomainEvent<T['IssueIgnored'], IssueIgnoredData>;
export type IssueAssigned = DomainEvent<T['IssueAssigned'], IssueAssignedData>;
export type IssueUnassigned = DomainEvent<T['IssueUnassigned'], IssueUnassignedData>;
export type CommentAdded = DomainEvent<T['CommentAdded'], CommentAddedData>;
export type CommentEdited = DomainEvent<T['CommentEdited'], CommentEditedData>;
export type CommentDeleted = DomainEvent<T['CommentDeleted'], CommentDeletedData>;
export type IssuesMerged = DomainEvent<T['IssuesMerged'], IssuesMergedData>;
export type IssueMergedInto = DomainEvent<T['IssueMergedInto'], IssueMergedIntoData>;
export type IssueUnmerged = DomainEvent<T['IssueUnmerged'], IssueUnmergedData>;
export type IssueUnmergedFrom = DomainEvent<T['IssueUnmergedFrom'], IssueUnmergedFromData>;

export type IssueEvent =
  | IssueCreated
  | IssueResolved
  | IssueUnresolved
  | IssueIgnored
  | IssueAssigned
  | IssueUnassigned
  | CommentAdded
  | CommentEdited
  | CommentDeleted
  | IssuesMerged
  | IssueMergedInto
  | IssueUnmerged
  | IssueUnmergedFrom;

/**
 * Payloads are stored as JSON; a round trip makes the in-memory event exactly what the store will
 * hand back (optional fields left `undefined` disappear), and freezing keeps it immutable.
 */
function jsonPayload<D>(data: D): D {
  return deepFreeze(JSON.parse(JSON.stringify(data)) as D);
}

function deepFreeze<V>(value: V): V {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

const v = ISSUE_EVENT_SCHEMA_VERSION;

export const issueCreated = (data: IssueCreatedData): IssueCreated => domainEvent(IssueEventTypes.IssueCreated, jsonPayload(data), v);

export const issueResolved = (data: IssueResolvedData): IssueResolved => domainEvent(IssueEventTypes.IssueResolved, jsonPayload(data), v);

export const issueUnresolved = (data: IssueUnresolvedData): IssueUnresolved => domainEvent(IssueEventTypes.IssueUnresolved, jsonPayload(data), v);

export const issueIgnored = (data: IssueIgnoredData): IssueIgnored => domainEvent(IssueEventTypes.IssueIgnored, jsonPayload(data), v);

export const issueAssigned = (data: IssueAssignedData): IssueAssigned => domainEvent(IssueEventTypes.IssueAssigned, jsonPayload(data), v);

export const issueUnassigned = (data: IssueUnassignedData): IssueUnassigned => domainEvent(IssueEventTypes.IssueUnassigned, jsonPayload(data), v);

export const commentAdded = (data: CommentAddedData): CommentAdded => domainEvent(IssueEventTypes.CommentAdded, jsonPayload(data), v);

export const commentEdited = (data: CommentEditedData): CommentEdited => domainEvent(IssueEventTypes.CommentEdited, jsonPayload(data), v);

export const commentDeleted = (data: CommentDeletedData): CommentDeleted => domainEvent(IssueEventTypes.CommentDeleted, jsonPayload(data), v);

export const issuesMerged = (data: IssuesMergedData): IssuesMerged => domainEvent(IssueEventTypes.IssuesMerged, jsonPayload(data), v);

export const issueMergedInto = (data: IssueMergedIntoData): IssueMergedInto => domainEvent(IssueEventTypes.IssueMergedInto, jsonPayload(data), v);

export const issueUnmerged = (data: IssueUnmergedData): IssueUnmerged => domainEvent(IssueEventTypes.IssueUnmerged, jsonPayload(data), v);

export const issueUnmergedFrom = (data: IssueUnmergedFromData): IssueUnmergedFrom => domainEvent(IssueEventTypes.IssueUnmergedFrom, jsonPayload(data), v);

const ISSUE_EVENT_TYPE_SET: ReadonlySet<string> = new Set(Object.values(IssueEventTypes));

/** Narrows an event read back from the store (e.g. a RecordedEvent) to an issue event. */
export function isIssueEvent(event: DomainEvent<string, unknown>): event is IssueEvent {
  return ISSUE_EVENT_TYPE_SET.has(event.type);
}
