import { idempotencyKey, outcomeOf, retryDelaySeconds, ticketRequest } from './ticket';

describe('ticket domain', () => {
  const subject = {
    issueId: '42',
    organizationId: '1',
    projectId: '2',
    shortId: 'WEB-3',
    title: 'TypeError: boom',
    culprit: 'charge(cart.js)',
    level: 'error',
  };

  it('builds the ticket with a link back to the issue, keyed by the issue', () => {
    expect(idempotencyKey('42')).toBe('faultline-issue-42');
    expect(ticketRequest(subject, 'https://errors.example.com/api/0/organizations/1/issues/42/')).toEqual({
      title: '[WEB-3] TypeError: boom',
      description: 'Culprit: charge(cart.js)\nLevel: error\nIssue: https://errors.example.com/api/0/organizations/1/issues/42/',
      issue: {
        id: '42',
        shortId: 'WEB-3',
        organizationId: '1',
        projectId: '2',
        level: 'error',
        url: 'https://errors.example.com/api/0/organizations/1/issues/42/',
      },
    });
    expect(ticketRequest({ ...subject, title: 'x'.repeat(400) }, 'http://h').title).toHaveLength(255);
  });

  it('retries on the schedule and repeats its last step', () => {
    expect([1, 2, 3, 4, 9].map((attempts) => retryDelaySeconds(attempts, [10, 60, 300]))).toEqual([10, 60, 300, 300, 300]);
  });

  it('sorts tracker answers into opened, retry and failed', () => {
    expect(outcomeOf(201, '{"id": "TCK-1", "url": "https://t/TCK-1"}')).toEqual({ kind: 'opened', externalId: 'TCK-1', url: 'https://t/TCK-1' });
    expect(outcomeOf(200, '{"id": 7}')).toEqual({ kind: 'opened', externalId: '7', url: null });
    expect(outcomeOf(200, 'ok')).toEqual({ kind: 'failed', error: 'tracker answered 200 without a ticket id' });
    for (const status of [408, 425, 429, 500, 503]) expect(outcomeOf(status, 'busy').kind).toBe('retry');
    for (const status of [301, 400, 401, 404, 422]) expect(outcomeOf(status, '').kind).toBe('failed');
    expect(outcomeOf(422, 'x'.repeat(500))).toEqual({ kind: 'failed', error: `tracker answered 422: ${'x'.repeat(200)}` });
  });
});
