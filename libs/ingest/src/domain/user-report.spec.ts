import fc from 'fast-check';
import { feedbackReportOf, reportOfItem, userReportOf } from './user-report';

const EVENT = 'a'.repeat(32);
const FEEDBACK = 'b'.repeat(32);

describe('user reports from SDK items', () => {
  it('reads the legacy user_report about an event', () => {
    expect(userReportOf({ event_id: EVENT.toUpperCase(), name: ' Ada ', email: 'ada@example.com', comments: 'It broke\u0000' })).toEqual({
      reportId: EVENT,
      eventId: EVENT,
      name: 'Ada',
      email: 'ada@example.com',
      comments: 'It broke\uFFFD',
    });
  });

  it('reads feedback with its contact, falling back to the user, and the event it is about', () => {
    expect(
      feedbackReportOf({
        event_id: FEEDBACK,
        user: { email: 'bob@example.com', username: 'bob' },
        contexts: { feedback: { message: 'Checkout hangs', associated_event_id: EVENT, url: 'https://shop.example.com' } },
      }),
    ).toEqual({ reportId: FEEDBACK, eventId: EVENT, name: 'bob', email: 'bob@example.com', comments: 'Checkout hangs' });
    expect(feedbackReportOf({ event_id: FEEDBACK, contexts: { feedback: { message: 'No event', name: 'C', contact_email: 'c@x' } } })).toMatchObject({
      eventId: null,
      name: 'C',
      email: 'c@x',
    });
  });

  it.each([
    [{ name: 'a', comments: 'b' }, 'event_id'],
    [{ event_id: EVENT, comments: '' }, 'comments are required'],
    [{ event_id: EVENT, comments: 'x'.repeat(4097) }, 'comments is longer than 4096'],
    [{ event_id: EVENT, comments: 'x', name: 'n'.repeat(129) }, 'name is longer than 128'],
    [[], 'JSON object'],
  ])('refuses %j', (value, problem) => {
    expect(userReportOf(value)).toEqual({ problem: expect.stringContaining(problem) });
  });

  it('names the item whose JSON is broken, and ignores other item types', () => {
    expect(reportOfItem('feedback', Buffer.from('{'))).toEqual({ problem: 'the feedback item is not valid JSON' });
    expect(reportOfItem('event', Buffer.from('{}'))).toBeUndefined();
  });

  it('answers any payload with a report or a problem', () => {
    fc.assert(
      fc.property(fc.constantFrom('user_report', 'feedback'), fc.jsonValue(), (type, value) => {
        const result = reportOfItem(type, Buffer.from(JSON.stringify(value) ?? 'null'));
        expect(result).toBeDefined();
      }),
    );
  });
});
