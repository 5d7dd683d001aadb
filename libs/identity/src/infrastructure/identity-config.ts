import { APP_CONFIG, type AppConfig, integerSetting } from '@faultline/platform';
import { type InviteMailLimits, MAILS_PER_RECIPIENT } from '../domain/invite-mail-budget';

export const IDENTITY_CONFIG = Symbol('IDENTITY_CONFIG');

export interface IdentityConfig {
  readonly inviteMails: InviteMailLimits;
}

/** The identity context's limits, from the environment the application was configured with (see docs/configuration.md). */
export function identityConfig(env: Readonly<Record<string, string | undefined>>): IdentityConfig {
  return {
    inviteMails: {
      perRecipient: MAILS_PER_RECIPIENT,
      perOrganization: integerSetting(env, 'INVITE_MAILS_PER_ORGANIZATION_HOUR', 100, 1, 100_000),
      pendingPerOrganization: integerSetting(env, 'PENDING_INVITES_PER_ORGANIZATION', 1_000, 1, 1_000_000),
    },
  };
}

export const identityConfigProvider = {
  provide: IDENTITY_CONFIG,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig) => identityConfig(config.environment),
};
