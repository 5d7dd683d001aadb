import { randomBytes, randomInt } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import { sha256Hex } from '@faultline/kernel';

/** Budgets of the second step of a sign-in, declared with its rules. */
export const TWO_FACTOR_LIMITS = {
  /** How long the second step of a password sign-in may wait. */
  challengeTtlMs: 5 * 60_000,
  /** Codes tried against one challenge before it is spent. */
  attemptsPerChallenge: 5,
  /** Failed codes per user in a window, counted by every API process together. */
  failuresPerWindow: 10,
  failureWindowMs: 15 * 60_000,
  recoveryCodes: 10,
} as const;

/** A TOTP code is accepted one 30-second step either side of the clock, as authenticator apps drift. */
const TOTP_TOLERANCE_SECONDS = 30;
const ISSUER = 'Faultline';
const TOTP_SECRET = /^[A-Z2-7]{16,128}$/;
const TOTP_CODE = /^\d{6}$/;
const RECOVERY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export const isTotpSecret = (secret: string): boolean => TOTP_SECRET.test(secret);

export const newTotpSecret = (): string => generateSecret();

/** The otpauth:// URI an authenticator app scans. */
export const totpUri = (secret: string, account: string): string => generateURI({ issuer: ISSUER, label: account, secret });

/**
 * The time step `code` matches for `secret` at `now`, or undefined. A step at or before
 * `lastTimeStep` is refused, so a code that signed in once cannot sign in again.
 */
export async function matchTotp(secret: string, code: string, now: Date, lastTimeStep: number | null): Promise<number | undefined> {
  const token = code.replace(/\s/g, '');
  if (!TOTP_CODE.test(token)) return undefined;
  const result = await verify({
    secret,
    token,
    epoch: Math.floor(now.getTime() / 1000),
    epochTolerance: TOTP_TOLERANCE_SECONDS,
    ...(lastTimeStep === null ? {} : { afterTimeStep: lastTimeStep }),
  });
  // A TOTP result carries its time step (a HOTP one, which this never asks for, would not).
  return result.valid && 'timeStep' in result ? result.timeStep : undefined;
}

/** Recovery codes as shown once (`XXXXX-XXXXX`), and the hashes that are all that is kept. */
export function newRecoveryCodes(): { readonly codes: string[]; readonly hashes: string[] } {
  const codes = Array.from({ length: TWO_FACTOR_LIMITS.recoveryCodes }, () => {
    const characters = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
    return `${characters.slice(0, 5)}-${characters.slice(5)}`;
  });
  return { codes, hashes: codes.map(hashRecoveryCode) };
}

/** Case, spaces and dashes do not matter when a recovery code is typed. */
export const hashRecoveryCode = (code: string): string => sha256Hex(`recovery:${code.toUpperCase().replace(/[\s-]/g, '')}`);

/** The second step of a sign-in: its token is given to the client once and kept only as a hash. */
export function issueChallenge(now: Date): { readonly token: string; readonly tokenHash: string; readonly expiresAt: Date } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashChallenge(token), expiresAt: new Date(now.getTime() + TWO_FACTOR_LIMITS.challengeTtlMs) };
}

export const hashChallenge = (token: string): string => sha256Hex(`2fa-challenge:${token}`);

/** The failures a user has in the current window once this one is counted, and when that window began. */
export function countFailure(previous: { windowStartedAt: Date; failures: number } | undefined, now: Date): { windowStartedAt: Date; failures: number } {
  if (!previous || now.getTime() - previous.windowStartedAt.getTime() >= TWO_FACTOR_LIMITS.failureWindowMs) return { windowStartedAt: now, failures: 1 };
  return { windowStartedAt: previous.windowStartedAt, failures: previous.failures + 1 };
}

/** Whether a user's failures leave room for another code now. */
export function mayTryCode(failures: { windowStartedAt: Date; failures: number } | undefined, now: Date): boolean {
  if (!failures || now.getTime() - failures.windowStartedAt.getTime() >= TWO_FACTOR_LIMITS.failureWindowMs) return true;
  return failures.failures < TWO_FACTOR_LIMITS.failuresPerWindow;
}
