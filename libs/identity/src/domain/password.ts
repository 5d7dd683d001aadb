import { randomBytes, scrypt, type ScryptOptions, timingSafeEqual } from 'node:crypto';
import { DomainError } from '@faultline/kernel';

/**
 * scrypt at one of OWASP's recommended costs (N=2^15, r=8, p=3): the CPU of N=2^17 with a quarter
 * of its memory (32 MiB per hash), so concurrent sign-ins cannot exhaust a server's memory.
 */
const COST = { N: 2 ** 15, r: 8, p: 3 } as const;
const KEY_LENGTH = 32;
const MIN_LENGTH = 8;
const MAX_LENGTH = 256;

function derive(password: string, salt: Buffer, options: ScryptOptions, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, length, { ...options, maxmem: 64 * 1024 * 1024 }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** Rejects passwords too short to resist guessing, or too long to hash cheaply. */
export function assertAcceptablePassword(password: string): void {
  if (password.length < MIN_LENGTH) {
    throw DomainError.invalid(`password: at least ${MIN_LENGTH} characters are required`, {
      errors: { password: [`At least ${MIN_LENGTH} characters are required`] },
    });
  }
  if (password.length > MAX_LENGTH) {
    throw DomainError.invalid(`password: at most ${MAX_LENGTH} characters`, { errors: { password: [`At most ${MAX_LENGTH} characters`] } });
  }
}

/** `scrypt$N$r$p$<salt b64>$<key b64>`: the parameters travel with the hash, so they can change later. */
export async function hashPassword(password: string): Promise<string> {
  assertAcceptablePassword(password);
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST, KEY_LENGTH);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/**
 * A stored hash nobody's password matches: verifying against it when the user is unknown or has no
 * password costs the same as a real check, so the answer's timing does not tell which case it was.
 */
export const UNUSABLE_PASSWORD_HASH = ['scrypt', COST.N, COST.r, COST.p, Buffer.alloc(16).toString('base64'), Buffer.alloc(KEY_LENGTH).toString('base64')].join(
  '$',
);

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const usable = typeof stored === 'string' && stored.startsWith('scrypt$');
  const [, n, r, p, salt, key] = (usable ? stored : UNUSABLE_PASSWORD_HASH).split('$');
  const expected = Buffer.from(key, 'base64');
  const actual = await derive(password.slice(0, MAX_LENGTH), Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) }, expected.length);
  return timingSafeEqual(actual, expected) && usable;
}

/** A password for the bootstrap user or the CLI to print once. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
