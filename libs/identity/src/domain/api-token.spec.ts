import { DomainError, expandScopes } from '@faultline/kernel';
import { hashToken, issueToken, tokenScopes } from './api-token';

describe('api tokens', () => {
  it('issues prefixed tokens whose hash and last characters are kept', () => {
    const token = issueToken('user');
    expect(token.plaintext).toMatch(/^sntryu_[0-9a-f]{64}$/);
    expect(token.hash).toBe(hashToken(token.plaintext));
    expect(token.lastCharacters).toBe(token.plaintext.slice(-4));
    expect(issueToken('organization').plaintext).toMatch(/^sntrys_/);
  });

  it('grants only scopes the creator holds', () => {
    const creator = expandScopes(['project:write']);
    expect(tokenScopes(['project:read', 'project:read'], creator)).toEqual(['project:read']);
    expect(() => tokenScopes(['project:admin'], creator)).toThrow(DomainError);
  });

  it('refuses unknown and empty scope lists', () => {
    const creator = expandScopes(['org:admin']);
    expect(() => tokenScopes(['org:root'], creator)).toThrow('Unknown scope: org:root');
    expect(() => tokenScopes([], creator)).toThrow(/at least one scope/);
  });
});
