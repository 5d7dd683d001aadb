import { mayManageRole, ROLE_SCOPES } from './roles';

describe('mayManageRole', () => {
  it('lets a role manage the roles whose scopes it holds: a manager never an owner, an owner every role', () => {
    expect(['billing', 'member', 'admin', 'manager'].every((role) => mayManageRole(ROLE_SCOPES.manager, role))).toBe(true);
    expect(mayManageRole(ROLE_SCOPES.manager, 'owner')).toBe(false);
    expect(['billing', 'member', 'admin', 'manager', 'owner'].every((role) => mayManageRole(ROLE_SCOPES.owner, role))).toBe(true);
    expect(mayManageRole(ROLE_SCOPES.admin, 'manager')).toBe(false);
  });

  it('refuses a role that does not exist', () => {
    expect(mayManageRole(ROLE_SCOPES.owner, 'chief')).toBe(false);
  });
});
