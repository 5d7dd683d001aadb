import { ScimError } from './scim-error';
import { groupChanges, groupReplacement } from './scim-group';
import { patchOperations } from './scim-user';

const changes = (...operations: unknown[]) => groupChanges(patchOperations({ Operations: operations }));

describe('SCIM group PATCH', () => {
  it("reads Okta's rename with the echoed id, member adds, filter-path removals and replacement", () => {
    expect(changes({ op: 'replace', value: { id: '7', displayName: 'New' } })).toEqual([{ kind: 'rename', name: 'New' }]);
    expect(changes({ op: 'add', path: 'members', value: [{ value: '1', display: 'a@b.c' }, { value: 2 }] })).toEqual([
      { kind: 'addMembers', memberIds: ['1', '2'] },
    ]);
    expect(changes({ op: 'remove', path: 'members[value eq "3"]' })).toEqual([{ kind: 'removeMembers', memberIds: ['3'] }]);
    expect(changes({ op: 'replace', path: 'members', value: [{ value: '4' }] })).toEqual([{ kind: 'replaceMembers', memberIds: ['4'] }]);
  });

  it("reads Entra ID's capitalised ops and removes every member listed", () => {
    expect(changes({ op: 'Remove', path: 'members', value: [{ value: '1' }, { value: '2' }, { value: '3' }] })).toEqual([
      { kind: 'removeMembers', memberIds: ['1', '2', '3'] },
    ]);
    expect(changes({ op: 'Replace', path: 'displayName', value: 'X' })).toEqual([{ kind: 'rename', name: 'X' }]);
    expect(changes({ op: 'remove', path: 'members[value eq "1" or value eq "2"]' })).toEqual([{ kind: 'removeMembers', memberIds: ['1', '2'] }]);
    expect(changes({ op: 'remove', path: 'members' })).toEqual([{ kind: 'replaceMembers', memberIds: [] }]);
  });

  it('refuses paths it cannot change', () => {
    expect(() => changes({ op: 'replace', path: 'owner', value: 'x' })).toThrow(ScimError);
    expect(() => changes({ op: 'remove', path: 'displayName' })).toThrow(ScimError);
    expect(() => changes({ op: 'remove', path: 'members[display co "x"]' })).toThrow(ScimError);
    expect(() => changes({ op: 'add', path: 'members', value: [{ display: 'no value' }] })).toThrow(ScimError);
  });

  it('reads a PUT body as a whole replacement', () => {
    expect(groupReplacement({ displayName: 'T', members: [{ value: '9' }] })).toEqual([
      { kind: 'rename', name: 'T' },
      { kind: 'setExternalId', externalId: null },
      { kind: 'replaceMembers', memberIds: ['9'] },
    ]);
  });
});
