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

/** The instance's rate limits of organizations, from the environment (docs/rate-limits.md). 0 means no quota. */
export function rateLimitsConfig(env: Readonly<Record<string, string | undefined>>): RateLimitsConfig {
  const most = 1_000_000_000;
  const quotas: Record<QuotaCategory, number> = {
    error: integerSetting(env, 'ORG_QUOTA_ERRORS', 0, 0, most),
    user_report: integerSetting(env, 'ORG_QUOTA_USER_REPORTS', 0, 0, most),
    check_in: integerSetting(env, 'ORG_QUOTA_CHECK_INS', 0, 0, most),
    session: integerSetting(env, 'ORG_QUOTA_SESSIONS', 0, 0, most),
  };
  const organizationQuotas = Object.fromEntries(Object.entries(quotas).filter(([, limit]) => limit > 0)) as Partial<Record<QuotaCategory, number>>;
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
