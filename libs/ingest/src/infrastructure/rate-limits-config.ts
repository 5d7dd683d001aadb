import { APP_CONFIG, type AppConfig, integerSetting } from '@faultline/platform';
import type { QuotaCategory, SpikeSettings } from '../domain';

export const RATE_LIMITS_CONFIG = Symbol('RATE_LIMITS_CONFIG');

export interface RateLimitsConfig {
  /** The window of organization quotas. */
  readonly organizationWindowSeconds: number;
  /** Items per category and window every organization may send; absent: no quota (an organization's own setting may still set one). */
  readonly organizationQuotas: Partial<Record<QuotaCategory, number>>;
  readonly spike: SpikeSettings;
  /** How often each organization's spike threshold and state are evaluated. */
  readonly spikeEvaluationSeconds: number;
  /** How long the active limits of an organization are kept in each process before they are read again. */
  readonly cacheSeconds: number;
}

const QUOTA_SETTINGS: Record<QuotaCategory, string> = {
  error: 'ORG_QUOTA_ERRORS',
  user_report: 'ORG_QUOTA_USER_REPORTS',
  check_in: 'ORG_QUOTA_CHECK_INS',
  session: 'ORG_QUOTA_SESSIONS',
};

/** The instance's rate limits of organizations, from the environment (docs/rate-limits.md). 0 means no quota. */
export function rateLimitsConfig(env: Readonly<Record<string, string | undefined>>): RateLimitsConfig {
  const organizationQuotas: Partial<Record<QuotaCategory, number>> = {};
  for (const [category, name] of Object.entries(QUOTA_SETTINGS) as Array<[QuotaCategory, string]>) {
    const limit = integerSetting(env, name, 0, 0, 1_000_000_000);
    if (limit > 0) organizationQuotas[category] = limit;
  }
  return {
    organizationWindowSeconds: integerSetting(env, 'ORG_QUOTA_WINDOW_SECONDS', 3600, 60, 86_400),
    organizationQuotas,
    spike: {
      multiplier: integerSetting(env, 'SPIKE_PROTECTION_MULTIPLIER', 5, 2, 1000),
      floor: integerSetting(env, 'SPIKE_PROTECTION_FLOOR', 500, 1, 1_000_000_000),
      baselineHours: 168,
    },
    spikeEvaluationSeconds: integerSetting(env, 'SPIKE_PROTECTION_EVALUATION_SECONDS', 60, 1, 3600),
    cacheSeconds: 5,
  };
}

export const rateLimitsConfigProvider = {
  provide: RATE_LIMITS_CONFIG,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig) => rateLimitsConfig(config.environment),
};
