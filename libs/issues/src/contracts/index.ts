export {
  IssueEventTypes,
  ignoredSubstatus,
  ignoreStatusDetails,
  resolvedStatusDetails,
  unresolvedSubstatus,
  ISSUE_EVENT_SCHEMA_VERSION,
  ISSUE_STREAM_TYPE,
  issueStream,
  isIssueEvent,
} from '../domain/issue.events';
export type {
  CommentAddedData,
  CommentDeletedData,
  CommentEditedData,
  IssueActor,
  IssueAssignedData,
  IssueAssignee,
  IssueCreatedData,
  IssueEvent,
  IssueEventBase,
  IssueEventType,
  IssueIgnoredData,
  IssueResolvedData,
  IssueUnassignedData,
  IssueUnresolvedData,
} from '../domain/issue.events';
export { eventTags, type EventTagSource } from '../domain/event-tags';
export { tagKeyLabel } from '../domain/tag-key-label';
export { AddIssueCommentCommand } from '../application/commands/add-issue-comment/add-issue-comment.command';
export type { IssueComment } from '../domain';
export { FindIssueQuery, type IssueSummary } from '../application/queries/find-issue.query';
export { IssueExternalLinksQuery, type IssueExternalLink } from '../application/queries/issue-external-links.query';
export * from './issue-ingestion';
export { ISSUES_PUBLISHED_VIEWS } from './published-views';
export * from './issue-webhook-payloads';
export { issueApiUrl, issueEventUrl, issueUrl } from '../domain/issue-links';
export * from './user-report-intake';
export * from './event-attachment-intake';
export { EVENT_ATTACHMENT_LIMITS, MINIDUMP_ATTACHMENT_TYPE } from '../domain/event-attachment';
export { EVENT_FIELDS, type EventFieldType } from '../application/queries/event-search';
/** Sentry's search syntax, for other contexts' filters written in it (a metric alert's query). */
export { scanSearchQuery, textTerm, type Term as SearchTerm } from '../application/queries/issue-search';
export { IssueTopFrames } from './issue-top-frames';
export { LatestReleases } from './latest-releases';
export * from './issue-occurrences';
