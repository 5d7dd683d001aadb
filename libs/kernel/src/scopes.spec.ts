import fc from 'fast-check';
import { DomainError } from './domain-error';
import { ALL_SCOPES, commonScopes, expandScopes, grantableScopes, intersectScopes, isScope, scopesWithin } from './scopes';

describe('scopes', () => {
  it('admin implies write implies read', () => {
    expect([...expandScopes(['project:admin'])].sort()).toEqual(['project:admin', 'project:read', 'project:releases', 'project:write']);
    expect([...expandScopes(['event:write'])].sort()).toEqual(['event:read', 'event:write']);
  });

  it('org:admin implies org:integrations', () => {
    expect(expandScopes(['org:admin']).has('org:integrations')).toBe(true);
  });

  it('ignores unknown scopes and intersects', () => {
    expect(isScope('root')).toBe(false);
    expect([...expandScopes(['root', 'org:read'])]).toEqual(['org:read']);
    expect([...intersectScopes(expandScopes(['org:write']), new Set(['org:read']))]).toEqual(['org:read']);
  });

  it('grants only scopes the holder holds, an empty list included', () => {
    const holder = expandScopes(['project:write']);
    expect(grantableScopes(['project:read', 'project:read'], holder)).toEqual(['project:read']);
    expect(grantableScopes([], holder)).toEqual([]);
    expect(() => grantableScopes(['project:admin'], holder)).toThrow(DomainError);
    expect(() => grantableScopes(['project:admin'], holder)).toThrow('You cannot grant scopes you do not have: project:admin');
    expect(() => grantableScopes(['org:root'], expandScopes(ALL_SCOPES))).toThrow('Unknown scope: org:root');
  });

  it('names what two grants have in common as briefly as they do', () => {
    expect(commonScopes(['event:write', 'org:read'], ['event:read', 'org:admin'])).toEqual(['event:read', 'org:read']);
    expect(commonScopes(['event:write'], ['event:admin'])).toEqual(['event:write']);
    expect(commonScopes(['project:admin'], ['project:releases', 'team:read'])).toEqual(['project:releases']);
    expect(commonScopes(['member:read'], [])).toEqual([]);
  });

  it('common scopes are within both grants and keep everything both grant', () => {
    const grant = fc.subarray([...ALL_SCOPES]);
    fc.assert(
      fc.property(grant, grant, (a, b) => {
        const common = commonScopes(a, b);
        expect(scopesWithin(common, a) && scopesWithin(common, b)).toBe(true);
        expect(expandScopes(common)).toEqual(intersectScopes(expandScopes(a), expandScopes(b)));
      }),
    );
  });
});
