import { assertAcceptablePassword, hashPassword, UNUSABLE_PASSWORD_HASH, verifyPassword } from './password';

describe('passwords', () => {
  it('verifies the password a hash was made from and no other', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^scrypt\$32768\$8\$3\$/);
    expect(hash).not.toContain('correct horse');
    await expect(verifyPassword('correct horse battery', hash)).resolves.toBe(true);
    await expect(verifyPassword('correct horse batter', hash)).resolves.toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same password')).not.toEqual(await hashPassword('same password'));
  });

  it('never matches a user without a password, nor the unusable hash', async () => {
    await expect(verifyPassword('', null)).resolves.toBe(false);
    await expect(verifyPassword('anything', UNUSABLE_PASSWORD_HASH)).resolves.toBe(false);
    await expect(verifyPassword('anything', 'plain-text')).resolves.toBe(false);
  });

  it('refuses short passwords with the field named', () => {
    expect(() => assertAcceptablePassword('short')).toThrow(/password: at least 8/);
  });
});
