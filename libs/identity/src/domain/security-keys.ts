import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { sha256Hex } from '@faultline/kernel';

/** Budgets of security keys (WebAuthn), declared with their rules. */
export const SECURITY_KEY_LIMITS = {
  /** How long an enrolment may wait for the key. */
  enrolmentTtlMs: 5 * 60_000,
  /** Keys one user may enrol. */
  keysPerUser: 10,
  nameLength: 60,
  /** The largest credential the browser may post (attestation objects are a few hundred bytes; certificates a few KB). */
  responseBytes: 16_384,
} as const;

/** Who the keys are bound to: the host and origin of PUBLIC_URL, so a key enrolled here answers nowhere else. */
export interface RelyingParty {
  readonly id: string;
  readonly origin: string;
  readonly name: string;
}

export function relyingPartyOf(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  return { id: url.hostname, origin: url.origin, name: 'Faultline' };
}

/** A key as stored: its credential id (base64url), COSE public key and signature counter. */
export interface StoredKey {
  readonly credentialId: string;
  readonly publicKey: Uint8Array;
  readonly signCount: number;
  readonly transports: readonly string[];
}

/** The challenge is kept only as this hash; the browser echoes the challenge in its signed client data. */
export const hashWebAuthnChallenge = (challenge: string): string => sha256Hex(`webauthn-challenge:${challenge}`);

/** What the browser's `navigator.credentials.create` needs, and the hash that later recognises its answer. */
export async function enrolmentOptions(
  rp: RelyingParty,
  user: { id: string; email: string; name: string },
  existing: readonly StoredKey[],
): Promise<{ readonly options: PublicKeyCredentialCreationOptionsJSON; readonly challengeHash: string }> {
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userDisplayName: user.name || user.email,
    userID: new TextEncoder().encode(`faultline-user:${user.id}`),
    attestationType: 'none',
    excludeCredentials: existing.map((key) => ({ id: key.credentialId, transports: [...key.transports] })),
    authenticatorSelection: { residentKey: 'discouraged', userVerification: 'discouraged' },
  });
  return { options, challengeHash: hashWebAuthnChallenge(options.challenge) };
}

/**
 * The key a registration response proves, or undefined when it does not verify: wrong origin or
 * relying party, a challenge `isChallenge` does not recognise, or a malformed attestation.
 */
export async function verifyEnrolment(
  rp: RelyingParty,
  response: RegistrationResponseJSON,
  isChallenge: (challengeHash: string) => Promise<boolean>,
): Promise<StoredKey | undefined> {
  try {
    const result = await verifyRegistrationResponse({
      response,
      expectedChallenge: (challenge) => isChallenge(hashWebAuthnChallenge(challenge)),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
    if (!result.verified) return undefined;
    const { credential } = result.registrationInfo;
    return { credentialId: credential.id, publicKey: credential.publicKey, signCount: credential.counter, transports: credential.transports ?? [] };
  } catch {
    return undefined;
  }
}

/** What `navigator.credentials.get` needs to sign with one of the user's keys. */
export async function signInOptions(
  rp: RelyingParty,
  keys: readonly StoredKey[],
): Promise<{ readonly options: PublicKeyCredentialRequestOptionsJSON; readonly challengeHash: string }> {
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: keys.map((key) => ({ id: key.credentialId, transports: [...key.transports] })),
    userVerification: 'discouraged',
  });
  return { options, challengeHash: hashWebAuthnChallenge(options.challenge) };
}

/**
 * The key's new signature counter when `response` is its signature over the challenge whose hash
 * is `challengeHash`; undefined otherwise. A counter that does not grow (a cloned key, or a
 * replayed signature) is refused by the library.
 */
export async function verifySignIn(rp: RelyingParty, response: AuthenticationResponseJSON, challengeHash: string, key: StoredKey): Promise<number | undefined> {
  try {
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: (challenge) => hashWebAuthnChallenge(challenge) === challengeHash,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: key.credentialId,
        publicKey: key.publicKey as Uint8Array<ArrayBuffer>,
        counter: key.signCount,
        transports: [...key.transports] as never,
      },
      requireUserVerification: false,
    });
    return result.verified ? result.authenticationInfo.newCounter : undefined;
  } catch {
    return undefined;
  }
}
