import { APP_CONFIG, type AppConfig, ConfigError } from '@faultline/platform';
import { type InviteMailLimits, MAILS_PER_RECIPIENT } from '../domain/invite-mail-budget';

export const IDENTITY_CONFIG = Symbol('IDENTITY_CONFIG');

export interface IdentityConfig {
  readonly inviteMails: InviteMailLimits;
}

function integer(env: Readonly<Record<string, string | undefined>>, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  return value;
}

/** The identity context's limits, from the environment the application was configured with (see the README). */
export function identityConfig(env: Readonly<Record<string, string | undefined>>): IdentityConfig {
  return {
    inviteMails: {
      perRecipient: MAILS_PER_RECIPIENT,
      perOrganization: integer(env, 'INVITE_MAILS_PER_ORGANIZATION_HOUR', 100, 1, 100_000),
      pendingPerOrganization: integer(env, 'PENDING_INVITES_PER_ORGANIZATION', 1_000, 1, 1_000_000),
    },
  };
}

export const identityConfigProvider = {
  provide: IDENTITY_CONFIG,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig) => identityConfig(config.environment),
};
