import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, DomainError } from '@faultline/kernel';
import { APP_CONFIG, type AppConfig, Database } from '@faultline/platform';
import { relyingPartyOf, SECURITY_KEY_LIMITS, verifyEnrolment } from '../../../domain/security-keys';
import { newRecoveryCodes } from '../../../domain/two-factor';
import { AuthCache } from '../../../infrastructure/auth-cache';
import { SecurityKeysRepository } from '../../../infrastructure/security-keys.repository';
import { TwoFactorRepository } from '../../../infrastructure/two-factor.repository';
import { EnrollSecurityKeyCommand } from './enroll-security-key.command';

/** Recovery codes are shown this once, when the first second factor brings them; otherwise none. */
export interface SecurityKeyEnrolment {
  readonly authenticatorId: string;
  readonly recoveryCodes: readonly string[];
}

type Outcome = SecurityKeyEnrolment | 'unverified' | 'duplicate' | 'too_many';

/**
 * Verifies a key's registration against the enrolment challenge of this session (spent whether
 * the key verifies or not) and stores its public key and counter under the user's `u2f`
 * authenticator. The first second factor of a user also brings recovery codes, as in Sentry.
 */
@CommandHandler(EnrollSecurityKeyCommand)
export class EnrollSecurityKeyHandler implements ICommandHandler<EnrollSecurityKeyCommand, SecurityKeyEnrolment> {
  constructor(
    private readonly database: Database,
    private readonly keys: SecurityKeysRepository,
    private readonly twoFactor: TwoFactorRepository,
    private readonly cache: AuthCache,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ userId, sessionId, name, response }: EnrollSecurityKeyCommand): Promise<SecurityKeyEnrolment> {
    const now = this.clock.now();
    const rp = relyingPartyOf(this.config.publicUrl);
    const outcome = await this.database.transaction(async (tx): Promise<Outcome> => {
      const key = await verifyEnrolment(rp, response, (challengeHash) => this.keys.spendEnrolment(tx, challengeHash, sessionId, now));
      if (!key) return 'unverified';
      if ((await this.keys.keys(tx, userId, { lock: true })).length >= SECURITY_KEY_LIMITS.keysPerUser) return 'too_many';
      const authenticatorId = await this.keys.ensureAuthenticator(tx, userId, now);
      if (!(await this.keys.insertKey(tx, authenticatorId, key, name, now))) return 'duplicate';
      if (await this.twoFactor.hasRecoveryCodes(tx, userId)) return { authenticatorId, recoveryCodes: [] };
      const recovery = newRecoveryCodes();
      await this.twoFactor.replaceRecoveryCodes(tx, userId, recovery.hashes, now);
      return { authenticatorId, recoveryCodes: recovery.codes };
    });
    if (outcome === 'unverified')
      throw new DomainError('invalid', 'The security key could not be verified, or the enrolment expired. Try again.', {
        response: ['The security key could not be verified, or the enrolment expired. Try again.'],
      });
    if (outcome === 'duplicate') throw new DomainError('conflict', 'This security key is enrolled already.');
    if (outcome === 'too_many') throw new DomainError('invalid', `At most ${SECURITY_KEY_LIMITS.keysPerUser} security keys can be enrolled; remove one first.`);
    this.cache.clear();
    return outcome;
  }
}
