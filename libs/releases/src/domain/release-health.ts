import { crashFreeRate, HOUR_MS, sessionStatuses } from './session-rollup';

export interface ReleaseSessions {
  readonly sessions: number;
  readonly crashed: number;
  readonly errored: number;
  readonly abnormal: number;
  readonly users: number;
  readonly crashedUsers: number;
  readonly sessions24h: number;
  readonly users24h: number;
  /** Sessions started in each of the last 24 hours, oldest first. */
  readonly hourly: readonly number[];
}

export interface ProjectSessions {
  readonly sessions24h: number;
  readonly users24h: number;
}

const percent = (rate: number | null): number | null => (rate === null ? null : rate * 100);
const share = (part: number, whole: number | undefined): number | null => (whole ? (part / whole) * 100 : null);

/**
 * A release's `healthData` in one project, as Sentry's release serializer shows it with `health=1`:
 * rates and adoption in percent, null without sessions; `stats.24h` is `[epoch seconds, sessions]`
 * per hour up to the current one.
 */
export function releaseHealthData(release: ReleaseSessions | undefined, project: ProjectSessions | undefined, now: Date) {
  const firstHour = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS - 23 * HOUR_MS;
  const hourly = release?.hourly ?? [];
  return {
    durationP50: null,
    durationP90: null,
    crashFreeUsers: percent(crashFreeRate(release?.users ?? 0, release?.crashedUsers ?? 0)),
    crashFreeSessions: percent(crashFreeRate(release?.sessions ?? 0, release?.crashed ?? 0)),
    sessionsCrashed: release?.crashed ?? 0,
    sessionsErrored: release ? sessionStatuses({ started: release.sessions, ...release }).errored : 0,
    totalUsers: release?.users ?? 0,
    totalUsers24h: release?.users24h ?? 0,
    totalProjectUsers24h: project?.users24h ?? 0,
    totalSessions: release?.sessions ?? 0,
    totalSessions24h: release?.sessions24h ?? 0,
    totalProjectSessions24h: project?.sessions24h ?? 0,
    adoption: share(release?.users24h ?? 0, project?.users24h),
    sessionsAdoption: share(release?.sessions24h ?? 0, project?.sessions24h),
    stats: { '24h': Array.from({ length: 24 }, (_, index) => [(firstHour + index * HOUR_MS) / 1000, hourly[index] ?? 0]) },
    hasHealthData: (release?.sessions ?? 0) > 0,
  };
}

export type ReleaseHealthData = ReturnType<typeof releaseHealthData>;
