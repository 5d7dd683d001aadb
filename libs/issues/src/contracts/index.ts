export { IssueEventTypes, ISSUE_STREAM_TYPE, issueStream } from '../domain/issue.events';
export type { IssueActor, IssueAssignee, IssueEvent } from '../domain/issue.events';
export * from './issue-ingestion';
