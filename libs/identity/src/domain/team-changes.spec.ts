import { DomainError } from '@faultline/kernel';
import { applyTeamChanges, memberIdsAdded } from './team-changes';

const team = { name: 'Web', slug: 'web', externalId: null, memberIds: ['1', '2'] };

describe('team changes', () => {
  it('applies renames and member changes in order and reports the difference', () => {
    const outcome = applyTeamChanges(team, [
      { kind: 'addMembers', memberIds: ['3', '1'] },
      { kind: 'removeMembers', memberIds: ['2', '9'] },
      { kind: 'rename', name: ' Web Platform ' },
    ]);
    expect(outcome).toMatchObject({ name: 'Web Platform', slug: 'web-platform', added: ['3'], removed: ['2'], renamed: true, externalIdChanged: false });
    expect([...outcome.memberIds].sort()).toEqual(['1', '3']);
  });

  it('replaces all members', () => {
    expect(applyTeamChanges(team, [{ kind: 'replaceMembers', memberIds: ['2', '4'] }])).toMatchObject({ added: ['4'], removed: ['1'] });
  });

  it('refuses an empty name', () => {
    expect(() => applyTeamChanges(team, [{ kind: 'rename', name: '  ' }])).toThrow(DomainError);
  });

  it('lists the members a change adds', () => {
    expect(
      memberIdsAdded([
        { kind: 'addMembers', memberIds: ['1'] },
        { kind: 'replaceMembers', memberIds: ['1', '2'] },
        { kind: 'removeMembers', memberIds: ['3'] },
      ]),
    ).toEqual(['1', '2']);
  });
});
