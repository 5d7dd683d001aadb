import type { RecordedEvent } from '@faultline/kernel';
import type { OrganizationAccess } from '@faultline/platform';
import type { IssueRelease, IssueRow, IssueStatsSeries, IssueTagKeyRow, IssueTagValueRow } from '../infrastructure/issue-read-model.repository';
import { OCCURRENCE_ISSUE_TYPES, type OccurrenceIssueType } from '../contracts/issue-occurrences';
import type { IssueActor, IssueAssignee, IssueComment, IssueEvent, IssueUnresolvedReason } from '../domain';
import { ignoreStatusDetails, IssueEventTypes, issueUrl, resolvedStatusDetails, shortReleaseVersion, tagKeyLabel } from '../domain';

const PRIORITY_BY_LEVEL: Record<string, string> = { fatal: 'high', error: 'high', warning: 'medium', info: 'low', debug: 'low' };

/** Sentry's category of an issue type: errors, or the category of the context that raises the type. */
const issueCategoryOf = (issueType: string): string => OCCURRENCE_ISSUE_TYPES[issueType as OccurrenceIssueType] ?? 'error';

const iso = (value: Date | string): string => new Date(value).toISOString();

/** Sentry's `assignedTo`: `{type, id, name, email?}` or null. */
export function serializeAssignee(assignee: IssueAssignee | null | undefined) {
  if (!assignee) return null;
  return {
    type: assignee.type,
    id: assignee.id,
    name: assignee.name ?? assignee.id,
    ...(assignee.email ? { email: assignee.email } : {}),
  };
}

/** How the issue was resolved (`{inRelease}`, `{inNextRelease: true}`), the conditions of a conditional ignore, else `{}`. */
export function statusDetailsOf(row: IssueRow): Record<string, unknown> {
  const data = row.status_event_data ?? {};
  if (row.status === 'resolved' && row.status_event_type === IssueEventTypes.IssueResolved) {
    return resolvedStatusDetails(data);
  }
  if (row.status === 'ignored' && row.status_event_type === IssueEventTypes.IssueIgnored) {
    return ignoreStatusDetails(data);
  }
  return {};
}

/** What the issue is about, from its first event: the main exception's type and value, or the title. */
export function issueMetadata(row: Pick<IssueRow, 'title' | 'first_exception'>): Record<string, unknown> {
  const exception = row.first_exception;
  if (exception && typeof exception === 'object' && (exception.type || exception.value)) {
    return { type: exception.type ?? 'Error', value: exception.value ?? '', title: row.title };
  }
  return { title: row.title };
}

/** What an issue list adds for its reader: their bookmark, and the events in the list's time range (`count`; `lifetime.count` stays the total). */
export interface IssueViewerFields {
  readonly isBookmarked?: boolean;
  readonly rangeCount?: number;
}

/**
 * An issue in Sentry's group shape, with every field Sentry's schema requires; what Faultline does
 * not track (inbox, priorities, seer, sessions) has a neutral value.
 */
export function serializeIssue(
  row: IssueRow,
  organization: OrganizationAccess,
  publicUrl: string,
  stats: Record<string, IssueStatsSeries> = {},
  viewer: IssueViewerFields = {},
) {
  const firstSeen = iso(row.first_seen);
  const lastSeen = iso(row.last_seen);
  const assignedTo = serializeAssignee(row.assignee);
  return {
    id: row.id,
    shareId: null,
    shortId: row.short_id,
    title: row.title,
    culprit: row.culprit,
    permalink: issueUrl(publicUrl, organization.slug, row.id),
    logger: null,
    level: row.level,
    status: row.status,
    statusDetails: statusDetailsOf(row),
    substatus: row.substatus,
    isPublic: false,
    platform: row.platform,
    priority: PRIORITY_BY_LEVEL[row.level] ?? 'medium',
    priorityLockedAt: null,
    seerFixabilityScore: null,
    seerAutofixLastTriggered: null,
    seerExplorerAutofixLastTriggered: null,
    project: { id: row.project_id, name: row.project_name, slug: row.project_slug, platform: row.project_platform },
    type: row.issue_type === 'error' ? 'error' : 'generic',
    issueType: row.issue_type,
    issueCategory: issueCategoryOf(row.issue_type),
    metadata: issueMetadata(row),
    numComments: row.num_comments,
    assignedTo,
    isBookmarked: viewer.isBookmarked ?? false,
    isSubscribed: false,
    subscriptionDetails: null,
    hasSeen: false,
    annotations: [],
    isUnhandled: row.unhandled,
    count: String(viewer.rangeCount ?? row.times_seen),
    userCount: Number(row.user_count),
    firstSeen,
    lastSeen,
    derivedData: {
      blocker: '',
      progress: '',
      status: '',
      viewCount: 0,
      hasOpenFixPr: false,
      isAssigned: assignedTo !== null,
      hasRootCause: false,
      lastCompletedAutofixStep: '',
      lastProgressedAt: null,
    },
    stats,
    lifetime: { count: String(row.times_seen), userCount: Number(row.user_count), firstSeen, lastSeen, stats: null },
    filtered: null,
    sessionCount: 0,
    inbox: null,
    owners: null,
    integrationIssues: [],
    sentryAppIssues: [],
    latestEventHasAttachments: false,
    matchingEventId: null,
    matchingEventEnvironment: null,
    firstRelease: serializeRelease(row.first_release),
    lastRelease: serializeRelease(row.last_release),
    tags: [],
    activity: [],
    seenBy: [],
    participants: [],
    userReportCount: 0,
  };
}

/** A tag key of an issue: `{key, name, totalValues, uniqueValues}`. */
export function serializeIssueTagKey(row: IssueTagKeyRow) {
  return { key: row.key, name: tagKeyLabel(row.key), totalValues: Number(row.total_values), uniqueValues: row.unique_values };
}

/** A tag value as Sentry's tag value endpoints answer it: `{key, name, value, count, lastSeen, firstSeen}`. */
export function serializeTagValue(row: IssueTagValueRow) {
  return {
    key: row.key,
    name: row.value,
    value: row.value,
    count: Number(row.times_seen),
    lastSeen: iso(row.last_seen),
    firstSeen: iso(row.first_seen),
  };
}

/** A release as an issue shows it; Faultline keeps no release records, so it has no ref, url or release date. */
function serializeRelease(release: IssueRelease | null) {
  if (!release) return null;
  return {
    version: release.version,
    shortVersion: shortReleaseVersion(release.version),
    dateCreated: release.dateCreated ? iso(release.dateCreated) : null,
    dateReleased: null,
    ref: null,
    url: null,
  };
}

const UNRESOLVED_ACTIVITY: Record<IssueUnresolvedReason, string> = { manual: 'set_unresolved', regression: 'set_regression', ignore_expired: 'set_escalating' };

/**
 * Sentry's activity feed of an issue, newest first, read from its event stream: `first_seen`,
 * `set_resolved` (`set_resolved_in_release`), `set_unresolved`, `set_regression`,
 * `set_escalating`, `set_ignored`, `assigned`, `unassigned`, `merge` (the issues merged into
 * this one), `unmerge_source` and `unmerge_destination` (Sentry's data: the other issue's id and
 * the fingerprints) and `note` (comments as last edited; deleted ones left out).
 */
export function serializeActivity(history: ReadonlyArray<RecordedEvent & IssueEvent>) {
  const user = (actor: IssueActor) => (actor.type === 'user' ? { id: actor.id, name: actor.name } : null);
  const entry = (event: RecordedEvent & IssueEvent, type: string, data: Record<string, unknown> = {}) => ({
    id: event.eventId,
    type,
    data,
    dateCreated: event.data.at,
    user: user(event.data.actor),
  });
  const activity: Array<ReturnType<typeof entry>> = [];
  const notes = new Map<string, ReturnType<typeof entry>>();
  for (const event of history) {
    switch (event.type) {
      case IssueEventTypes.IssueCreated:
        activity.push(entry(event, 'first_seen'));
        break;
      case IssueEventTypes.IssueResolved:
        // As Sentry records it, a resolution in the next release has no version yet.
        activity.push(
          event.data.inRelease || event.data.inNextReleaseAfter
            ? entry(event, 'set_resolved_in_release', { version: event.data.inRelease ?? '' })
            : entry(event, 'set_resolved'),
        );
        break;
      case IssueEventTypes.IssueUnresolved:
        activity.push(entry(event, UNRESOLVED_ACTIVITY[event.data.reason], event.data.eventId ? { event_id: event.data.eventId } : {}));
        break;
      case IssueEventTypes.IssueIgnored:
        activity.push(entry(event, 'set_ignored', ignoreStatusDetails(event.data)));
        break;
      case IssueEventTypes.IssueAssigned: {
        const { type, id, name, email } = event.data.assignee;
        activity.push(
          entry(event, 'assigned', { assignee: id, assigneeType: type, ...(name ? { assigneeName: name } : {}), ...(email ? { assigneeEmail: email } : {}) }),
        );
        break;
      }
      case IssueEventTypes.IssueUnassigned:
        activity.push(entry(event, 'unassigned'));
        break;
      case IssueEventTypes.CommentAdded: {
        const note = { ...entry(event, 'note', { text: event.data.text }), id: event.data.commentId };
        notes.set(event.data.commentId, note);
        activity.push(note);
        break;
      }
      case IssueEventTypes.CommentEdited: {
        const note = notes.get(event.data.commentId);
        if (note) note.data = { text: event.data.text };
        break;
      }
      case IssueEventTypes.CommentDeleted: {
        const note = notes.get(event.data.commentId);
        if (note) activity.splice(activity.indexOf(note), 1);
        break;
      }
      case IssueEventTypes.IssuesMerged:
        activity.push(entry(event, 'merge', { issues: event.data.children.map((child) => ({ id: child.issueId, shortId: child.shortId })) }));
        break;
      case IssueEventTypes.IssueUnmerged:
        activity.push(
          entry(event, 'unmerge_source', {
            destination_id: event.data.destination.issueId,
            destination: { id: event.data.destination.issueId, shortId: event.data.destination.shortId },
            fingerprints: event.data.hashes,
          }),
        );
        break;
      case IssueEventTypes.IssueUnmergedFrom:
        activity.push(
          entry(event, 'unmerge_destination', {
            source_id: event.data.source.issueId,
            source: { id: event.data.source.issueId, shortId: event.data.source.shortId },
            fingerprints: event.data.hashes,
          }),
        );
        break;
    }
  }
  return activity.reverse();
}

/** A comment as Sentry's note activity: `{id, type: 'note', data: {text}, dateCreated, user}`. */
export function serializeComment(comment: IssueComment) {
  return {
    id: comment.id,
    type: 'note',
    data: { text: comment.text },
    dateCreated: comment.createdAt,
    ...(comment.editedAt ? { dateUpdated: comment.editedAt } : {}),
    user: comment.authorType === 'user' ? { id: comment.authorId, name: comment.authorName } : null,
    actor: { type: comment.authorType, id: comment.authorId, name: comment.authorName },
  };
}
