import { APP_CONFIG, type AppConfig, integerSetting } from '@faultline/platform';

export const MONITORS_CONFIG = Symbol('MONITORS_CONFIG');

/** The monitors context's budgets (docs/crons.md, SECURITY.md "Budgets"). */
export interface MonitorsConfig {
  /** Monitors one organization may have; an SDK upsert past it is dropped, the API answers 403. */
  readonly monitorsPerOrganization: number;
  /** New check-ins one monitor may record in a minute; more are dropped (Sentry rate-limits check-ins per monitor). */
  readonly checkInsPerMonitorMinute: number;
  /** Environments one monitor may check in from. */
  readonly environmentsPerMonitor: number;
  /** Closing check-ins one organization may keep while their monitor's first check-in is on its way. */
  readonly unpairedCheckInsPerOrganization: number;
  /** Monitor environments one sweep transaction handles: its cost is bounded whatever the number of monitors. */
  readonly sweepBatchSize: number;
}

export function monitorsConfig(env: Readonly<Record<string, string | undefined>>): MonitorsConfig {
  return {
    monitorsPerOrganization: integerSetting(env, 'MONITORS_PER_ORGANIZATION', 1_000, 1, 1_000_000),
    checkInsPerMonitorMinute: integerSetting(env, 'MONITOR_CHECK_INS_PER_MINUTE', 10, 1, 10_000),
    environmentsPerMonitor: 20,
    unpairedCheckInsPerOrganization: 100,
    sweepBatchSize: 100,
  };
}

export const monitorsConfigProvider = {
  provide: MONITORS_CONFIG,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig) => monitorsConfig(config.environment),
};
