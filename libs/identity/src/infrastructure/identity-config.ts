import { APP_CONFIG, type AppConfig, integerSetting } from '@faultline/platform';
import { type InviteMailLimits, MAILS_PER_RECIPIENT } from '../domain/invite-mail-budget';

export const IDENTITY_CONFIG = Symbol('IDENTITY_CONFIG');

export interface IdentityConfig {
  readonly inviteMails: InviteMailLimits;
  /** The key and certificate this service signs SAML AuthnRequests with (PEM); unsigned requests without. */
  readonly samlServiceProvider: { readonly privateKey: string; readonly certificate: string } | undefined;
}

/** A PEM given in one line of the environment carries its line breaks as `\n`. */
const pem = (value: string | undefined): string | undefined => value?.trim().replace(/\\n/g, '\n') || undefined;

/** The identity context's limits, from the environment the application was configured with (see docs/configuration.md). */
export function identityConfig(env: Readonly<Record<string, string | undefined>>): IdentityConfig {
  return {
    inviteMails: {
      perRecipient: MAILS_PER_RECIPIENT,
      perOrganization: integerSetting(env, 'INVITE_MAILS_PER_ORGANIZATION_HOUR', 100, 1, 100_000),
      pendingPerOrganization: integerSetting(env, 'PENDING_INVITES_PER_ORGANIZATION', 1_000, 1, 1_000_000),
    },
    samlServiceProvider: samlServiceProvider(pem(env.SAML_SP_PRIVATE_KEY), pem(env.SAML_SP_CERTIFICATE)),
  };
}

export const identityConfigProvider = {
  provide: IDENTITY_CONFIG,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig) => identityConfig(config.environment),
};

function samlServiceProvider(privateKey: string | undefined, certificate: string | undefined): IdentityConfig['samlServiceProvider'] {
  if (!privateKey && !certificate) return undefined;
  if (!privateKey || !certificate) throw new Error('SAML_SP_PRIVATE_KEY and SAML_SP_CERTIFICATE are set together or not at all');
  return { privateKey, certificate };
}
