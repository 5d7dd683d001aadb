import { APP_WEBHOOK_BY_ISSUE_EVENT } from './app-webhook';

describe('APP_WEBHOOK_BY_ISSUE_EVENT', () => {
  it('maps issue events to the app webhooks Sentry sends for them', () => {
    expect(APP_WEBHOOK_BY_ISSUE_EVENT['issues.IssueCreated']).toBe('issue.created');
    expect(APP_WEBHOOK_BY_ISSUE_EVENT['issues.CommentEdited']).toBe('comment.updated');
    expect(APP_WEBHOOK_BY_ISSUE_EVENT['issues.IssueUnassigned']).toBeNull();
  });
});
