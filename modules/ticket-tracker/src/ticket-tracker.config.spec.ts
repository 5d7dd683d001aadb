import { loadConfig } from '@faultline/platform';
import { ticketTrackerConfig } from './ticket-tracker.config';

describe('ticketTrackerConfig', () => {
  const read = (env: Record<string, string>) => ticketTrackerConfig(loadConfig({ PUBLIC_URL: 'https://errors.example.com', ...env }));

  it('reads the tracker settings from the environment, with defaults', () => {
    expect(read({ TICKET_TRACKER_URL: 'https://tracker.example.com/api/tickets' })).toEqual({
      url: 'https://tracker.example.com/api/tickets',
      token: undefined,
      timeoutMs: 10_000,
      retrySeconds: [10, 60, 300, 1800, 3600],
      publicUrl: 'https://errors.example.com',
    });
    expect(
      read({ TICKET_TRACKER_URL: 'http://t', TICKET_TRACKER_TOKEN: 's', TICKET_TRACKER_TIMEOUT_MS: '500', TICKET_TRACKER_RETRY_SCHEDULE: '1, 2' }),
    ).toMatchObject({ token: 's', timeoutMs: 500, retrySeconds: [1, 2] });
  });

  it('refuses a missing or bad setting with a message naming it', () => {
    expect(() => read({})).toThrow(/TICKET_TRACKER_URL is required/);
    expect(() => read({ TICKET_TRACKER_URL: 'ftp://t' })).toThrow(/TICKET_TRACKER_URL must be an absolute http\(s\) URL/);
    expect(() => read({ TICKET_TRACKER_URL: 'http://t', TICKET_TRACKER_TIMEOUT_MS: '5' })).toThrow(/TICKET_TRACKER_TIMEOUT_MS/);
    expect(() => read({ TICKET_TRACKER_URL: 'http://t', TICKET_TRACKER_RETRY_SCHEDULE: 'soon' })).toThrow(/TICKET_TRACKER_RETRY_SCHEDULE/);
  });
});
