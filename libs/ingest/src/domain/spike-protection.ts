/**
 * Spike protection as Sentry describes it (docs.sentry.io, "Spike Protection"): a threshold per
 * hour from the organization's hourly volume of the past days times a multiplier, never below a
 * floor; an hour whose errors pass it is a spike, and the organization's errors are dropped until
 * the hour ends. The threshold is computed again at every evaluation, so a volume that stays high
 * becomes the new baseline. A spike ends once a quiet hour follows its last limited one, so a flood
 * that passes the threshold again each hour is one spike (one mail), not one per hour.
 */

export interface SpikeSettings {
  /** How many times the baseline hour a spike hour is. */
  readonly multiplier: number;
  /** The smallest threshold, so a quiet organization's first busy hour is no spike. */
  readonly floor: number;
  /** Hours averaged for the baseline (Sentry: the past 7 days). */
  readonly baselineHours: number;
}

export interface SpikeState {
  readonly startedAt: Date | null;
  readonly limitedUntil: Date | null;
}

export interface SpikeEvaluation {
  readonly threshold: number;
  readonly state: SpikeState;
  /** A spike began at this evaluation (tell the owners). */
  readonly started: boolean;
  /** The spike in progress ended at this evaluation. */
  readonly ended: boolean;
}

const HOUR_MS = 3_600_000;
export const NO_SPIKE: SpikeState = { startedAt: null, limitedUntil: null };

/** The hour's threshold from the errors of the baseline hours (hours without errors count as none). */
export function spikeThreshold(baselineErrors: number, settings: SpikeSettings): number {
  return Math.max(settings.floor, Math.ceil((settings.multiplier * baselineErrors) / settings.baselineHours));
}

export function hourStart(at: Date): Date {
  return new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
}

export function evaluateSpike(input: {
  readonly enabled: boolean;
  /** Errors accepted in the baseline hours before the current one. */
  readonly baselineErrors: number;
  /** Errors accepted in the current hour so far. */
  readonly currentHourErrors: number;
  readonly state: SpikeState;
  readonly settings: SpikeSettings;
  readonly now: Date;
}): SpikeEvaluation {
  const threshold = spikeThreshold(input.baselineErrors, input.settings);
  const open = input.state.startedAt !== null;
  if (!input.enabled) return { threshold, state: NO_SPIKE, started: false, ended: open };
  if (input.currentHourErrors > threshold) {
    const limitedUntil = new Date(hourStart(input.now).getTime() + HOUR_MS);
    return { threshold, state: { startedAt: input.state.startedAt ?? input.now, limitedUntil }, started: !open, ended: false };
  }
  const quietSince = input.state.limitedUntil ? input.state.limitedUntil.getTime() + HOUR_MS : 0;
  if (open && input.now.getTime() >= quietSince) return { threshold, state: NO_SPIKE, started: false, ended: true };
  return { threshold, state: input.state, started: false, ended: false };
}
