import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { CLOCK, type Clock } from '@faultline/kernel';
import { APP_CONFIG, type AppConfig, Database } from '@faultline/platform';
import { relyingPartyOf, signInOptions } from '../../../domain/security-keys';
import { hashChallenge } from '../../../domain/two-factor';
import { SecurityKeysRepository } from '../../../infrastructure/security-keys.repository';
import { TwoFactorRepository } from '../../../infrastructure/two-factor.repository';
import { StartSecurityKeySignInCommand } from './start-security-key-sign-in.command';

/**
 * Gives a pending sign-in a fresh WebAuthn challenge for the user's keys, kept as a hash on the
 * sign-in's challenge; undefined when the sign-in is unknown or over, or the user has no key.
 */
@CommandHandler(StartSecurityKeySignInCommand)
export class StartSecurityKeySignInHandler implements ICommandHandler<StartSecurityKeySignInCommand, PublicKeyCredentialRequestOptionsJSON | undefined> {
  constructor(
    private readonly database: Database,
    private readonly keys: SecurityKeysRepository,
    private readonly twoFactor: TwoFactorRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ challenge }: StartSecurityKeySignInCommand): Promise<PublicKeyCredentialRequestOptionsJSON | undefined> {
    const now = this.clock.now();
    const tokenHash = hashChallenge(challenge);
    return this.database.transaction(async (tx) => {
      const userId = await this.twoFactor.challengeUser(tx, tokenHash, now);
      if (!userId) return undefined;
      const keys = await this.keys.keys(tx, userId);
      if (keys.length === 0) return undefined;
      const { options, challengeHash } = await signInOptions(relyingPartyOf(this.config.publicUrl), keys);
      return (await this.keys.setSignInChallenge(tx, tokenHash, challengeHash, now)) ? options : undefined;
    });
  }
}
