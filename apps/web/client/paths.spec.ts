import { match } from './paths';

describe('match', () => {
  it("reads the parameters of Sentry's URLs, with or without the trailing slash", () => {
    expect(match('/settings/:org/projects/:project/hooks/', '/settings/acme/projects/web/hooks/')).toEqual({ org: 'acme', project: 'web' });
    expect(match('/settings/:org/projects/:project/hooks/', '/settings/acme/projects/web/hooks')).toEqual({ org: 'acme', project: 'web' });
    expect(match('/organizations/:org/issues/:issueId/', '/organizations/my%20org/issues/42/')).toEqual({ org: 'my org', issueId: '42' });
  });

  it('matches whole paths only', () => {
    expect(match('/settings/:org/projects/:project/hooks/', '/settings/acme/projects/web/hooks/new/')).toBeNull();
    expect(match('/organizations/:org/issues/', '/organizations/acme/issues/1/')).toBeNull();
    expect(match('/settings/account/api/auth-tokens/', '/settings/account/api/auth-tokens/')).toEqual({});
  });
});
