import { DomainError } from '@faultline/kernel';
import { DEFAULT_PROJECT_OWNERSHIP, ownershipChanges, planOwnershipUpdate, updatedOwnership } from './project-ownership';

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, message: error.message, details: error.details };
    throw error;
  }
  throw new Error('not refused');
};

describe('project ownership settings', () => {
  it('plans only the fields given, and a blank text clears the rules', () => {
    expect(planOwnershipUpdate({ fallthrough: false })).toEqual({ fallthrough: false, autoAssignment: undefined });
    expect(planOwnershipUpdate({ raw: '  \n', autoAssignment: 'Turn off Auto-Assignment' })).toEqual({
      rules: [],
      raw: null,
      fallthrough: undefined,
      autoAssignment: false,
    });
  });

  it('refuses what it cannot honour, with the field it concerns', () => {
    expect(refusal(() => planOwnershipUpdate({ autoAssignment: 'Auto Assign to Suspect Commits' }))).toMatchObject({
      code: 'invalid',
      details: { autoAssignment: [expect.any(String)] },
    });
    expect(refusal(() => planOwnershipUpdate({ raw: 'url:x' }))).toMatchObject({ code: 'invalid', details: { raw: [expect.stringMatching(/line 1/)] } });
    expect(refusal(() => planOwnershipUpdate({ codeownersAutoSync: true }))).toMatchObject({ details: { codeownersAutoSync: [expect.any(String)] } });
  });

  it('stores owners with their ids, and names every unknown owner, sorted, as Sentry does', () => {
    const planned = planOwnershipUpdate({ raw: 'src/* #web a@x.io\n*.py #ghost z@x.io' });
    expect(
      refusal(() =>
        updatedOwnership(
          DEFAULT_PROJECT_OWNERSHIP,
          planned,
          new Map([
            ['#web', '1'],
            ['a@x.io', '2'],
          ]),
        ),
      ),
    ).toMatchObject({
      message: 'Invalid rule owners: #ghost, z@x.io',
    });
    const ids = new Map([
      ['#web', '1'],
      ['a@x.io', '2'],
      ['#ghost', '3'],
      ['z@x.io', '4'],
    ]);
    const next = updatedOwnership(DEFAULT_PROJECT_OWNERSHIP, planned, ids);
    expect(next.schema?.rules[1].owners).toEqual([
      { type: 'team', identifier: 'ghost', id: '3' },
      { type: 'user', identifier: 'z@x.io', id: '4' },
    ]);
    expect(Object.keys(ownershipChanges(DEFAULT_PROJECT_OWNERSHIP, next))).toEqual(['raw', 'schema']);
    expect(ownershipChanges(next, updatedOwnership(next, planOwnershipUpdate({ fallthrough: true }), new Map()))).toEqual({});
  });
});
