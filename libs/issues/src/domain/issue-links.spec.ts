import { issueApiUrl, issueEventUrl, issueUrl } from './issue-links';

describe('issue links', () => {
  it('names the web page, an event page and the API resource of an issue', () => {
    expect(issueUrl('https://errors.example.com', 'acme', '42')).toBe('https://errors.example.com/organizations/acme/issues/42/');
    expect(issueEventUrl('https://errors.example.com', 'acme', '42', 'ab12')).toBe('https://errors.example.com/organizations/acme/issues/42/events/ab12/');
    expect(issueApiUrl('https://errors.example.com', 'acme', '42')).toBe('https://errors.example.com/api/0/organizations/acme/issues/42/');
  });
});
