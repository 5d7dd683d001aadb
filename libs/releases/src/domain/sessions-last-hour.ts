import { HOUR_MS } from './session-rollup';

/**
 * Sessions started in the hour up to `now`, from hourly counts: all of the current hour's, and of
 * the previous hour the part the last hour still covers (sessions taken as spread evenly over it).
 */
export function sessionsInLastHour(currentHour: number, previousHour: number, now: Date): number {
  const elapsed = (now.getTime() % HOUR_MS) / HOUR_MS;
  return currentHour + previousHour * (1 - elapsed);
}
