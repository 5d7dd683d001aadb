import { expandScopes, intersectScopes, isScope } from './scopes';

describe('scopes', () => {
  it('admin implies write implies read', () => {
    expect([...expandScopes(['project:admin'])].sort()).toEqual(
      ['project:admin', 'project:read', 'project:releases', 'project:write'],
    );
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
});
