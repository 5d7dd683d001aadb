import fc from 'fast-check';
import { generate, generateSecret } from 'otplib';
import { countFailure, hashRecoveryCode, issueChallenge, matchTotp, mayTryCode, newRecoveryCodes, TWO_FACTOR_LIMITS } from './two-factor';

const NOW = new Date('2026-03-02T10:00:00Z');
const epoch = (date: Date) => Math.floor(date.getTime() / 1000);

describe('two-factor rules', () => {
  const secret = generateSecret();

  it('accepts the current code and one 30-second step either side, and no code of a step already used', async () => {
    const code = await generate({ secret, epoch: epoch(NOW) });
    const step = await matchTotp(secret, code, NOW, null);
    expect(step).toBe(Math.floor(epoch(NOW) / 30));
    expect(await matchTotp(secret, code, new Date(NOW.getTime() + 30_000), null)).toBe(step);
    expect(await matchTotp(secret, code, new Date(NOW.getTime() + 90_000), null)).toBeUndefined();
    expect(await matchTotp(secret, code, NOW, step!)).toBeUndefined();
    expect(await matchTotp(secret, ` ${code.slice(0, 3)} ${code.slice(3)} `, NOW, null)).toBe(step);
  });

  it('never matches, nor throws on, anything that is not a current code', async () => {
    const code = await generate({ secret, epoch: epoch(NOW) });
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 64 }), async (input) => {
        fc.pre(input.replace(/\s/g, '') !== code);
        expect(await matchTotp(secret, input, NOW, null)).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });

  it('makes ten distinct recovery codes, kept as hashes that ignore case, spaces and dashes', () => {
    const { codes, hashes } = newRecoveryCodes();
    expect(codes).toHaveLength(TWO_FACTOR_LIMITS.recoveryCodes);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
    expect(hashRecoveryCode(codes[0].toLowerCase().replace('-', ' '))).toBe(hashes[0]);
    expect(hashes).not.toContain(hashRecoveryCode(codes[0].slice(1)));
  });

  it('issues challenges whose token is never what is stored', () => {
    const challenge = issueChallenge(NOW);
    expect(challenge.tokenHash).not.toContain(challenge.token);
    expect(challenge.expiresAt.getTime() - NOW.getTime()).toBe(TWO_FACTOR_LIMITS.challengeTtlMs);
  });

  it('counts failures in a fifteen-minute window and allows ten', () => {
    let window: ReturnType<typeof countFailure> | undefined;
    for (let failure = 1; failure <= TWO_FACTOR_LIMITS.failuresPerWindow; failure++) {
      expect(mayTryCode(window, NOW)).toBe(true);
      window = countFailure(window, NOW);
      expect(window.failures).toBe(failure);
    }
    expect(mayTryCode(window, NOW)).toBe(false);
    const later = new Date(NOW.getTime() + TWO_FACTOR_LIMITS.failureWindowMs);
    expect(mayTryCode(window, later)).toBe(true);
    expect(countFailure(window, later)).toEqual({ windowStartedAt: later, failures: 1 });
  });
});
