import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';
import { CLOCK, type Clock, DomainError } from '@faultline/kernel';
import { APP_CONFIG, type AppConfig, Database } from '@faultline/platform';
import { enrolmentOptions, relyingPartyOf, SECURITY_KEY_LIMITS } from '../../../domain/security-keys';
import { SecurityKeysRepository } from '../../../infrastructure/security-keys.repository';
import { SessionsRepository } from '../../../infrastructure/sessions.repository';
import { StartSecurityKeyEnrolmentCommand } from './start-security-key-enrolment.command';

/**
 * Starts enrolling a security key: the challenge is bound to the session that asked, kept only as
 * a hash, and expires; `EnrollSecurityKeyCommand` spends it.
 */
@CommandHandler(StartSecurityKeyEnrolmentCommand)
export class StartSecurityKeyEnrolmentHandler implements ICommandHandler<StartSecurityKeyEnrolmentCommand, PublicKeyCredentialCreationOptionsJSON> {
  constructor(
    private readonly database: Database,
    private readonly users: SessionsRepository,
    private readonly keys: SecurityKeysRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ userId, sessionId }: StartSecurityKeyEnrolmentCommand): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const now = this.clock.now();
    return this.database.transaction(async (tx) => {
      const user = await this.users.findUserById(tx, userId);
      if (!user) throw DomainError.notFound();
      const existing = await this.keys.keys(tx, userId);
      if (existing.length >= SECURITY_KEY_LIMITS.keysPerUser)
        throw new DomainError('invalid', `At most ${SECURITY_KEY_LIMITS.keysPerUser} security keys can be enrolled; remove one first.`);
      const { options, challengeHash } = await enrolmentOptions(relyingPartyOf(this.config.publicUrl), user, existing);
      await this.keys.insertEnrolment(tx, { challengeHash, sessionId, expiresAt: new Date(now.getTime() + SECURITY_KEY_LIMITS.enrolmentTtlMs) }, now);
      return options;
    });
  }
}
