import { AggregateRoot } from '@faultline/kernel';
import type { RunOutcome } from './check-in';
import {
  type MonitorEnvironmentEvent,
  MonitorEnvironmentEventTypes as E,
  monitorEnvironmentCreated,
  monitorEnvironmentFailed,
  monitorEnvironmentMuted,
  monitorEnvironmentRecovered,
  monitorEnvironmentUnmuted,
  runCounted,
} from './monitor-environment.events';

/** Sentry's environment statuses: `active` until its first run ends, then `ok` or `error`. */
export type MonitorEnvironmentStatus = 'active' | 'ok' | 'error';

/** A plain copy of a monitor environment's state. */
export interface MonitorEnvironmentState {
  readonly id: string;
  readonly monitorId: string;
  readonly environment: string;
  readonly status: MonitorEnvironmentStatus;
  /** Failed runs in a row while not in error: at the failure threshold the environment fails. */
  readonly failedRuns: number;
  /** Good runs in a row while in error: at the recovery threshold it recovers. */
  readonly recoveredRuns: number;
  readonly isMuted: boolean;
  /** When the current failure began (the first failed run of the streak), while in error. */
  readonly failingSince?: string;
}

export interface Thresholds {
  readonly failure: number;
  readonly recovery: number;
}

/**
 * What a run's end did: nothing to tell (`none`), the environment failed (open its issue), it is
 * still failing (one more occurrence of the open issue), or it recovered (resolve the issue).
 */
export type RunEffect = 'none' | 'failed' | 'failing' | 'recovered';

const FAILURES: ReadonlySet<RunOutcome> = new Set(['error', 'missed', 'timeout']);

/**
 * One environment of a cron monitor (Sentry's MonitorEnvironment): counts the runs that end, and
 * moves ok → error when `failure` runs in a row failed (errored, missed or timed out), and
 * error → ok when `recovery` runs in a row succeeded. The thresholds are the monitor's current
 * configuration, passed with each run; the counts live here, so the rule is testable without a
 * database (Sentry counts them with queries in `logic/incidents.py`).
 */
export class MonitorEnvironment extends AggregateRoot<MonitorEnvironmentEvent> {
  private state?: MonitorEnvironmentState;

  static create(input: { id: string; monitorId: string; environment: string; at: string }): MonitorEnvironment {
    const created = new MonitorEnvironment();
    created.raise(monitorEnvironmentCreated({ monitorEnvironmentId: input.id, monitorId: input.monitorId, environment: input.environment, at: input.at }));
    return created;
  }

  get snapshot(): MonitorEnvironmentState {
    return { ...this.current };
  }

  get status(): MonitorEnvironmentStatus {
    return this.current.status;
  }

  get isMuted(): boolean {
    return this.current.isMuted;
  }

  /** Counts a run that ended; a run that changes no count raises nothing. */
  recordRun(run: { checkInId: string; outcome: RunOutcome; at: string }, thresholds: Thresholds): RunEffect {
    const state = this.current;
    const base = { monitorEnvironmentId: state.id, checkInId: run.checkInId, outcome: run.outcome, at: run.at };
    if (FAILURES.has(run.outcome)) {
      if (state.status === 'error') {
        if (state.recoveredRuns > 0) this.raise(runCounted(base));
        return 'failing';
      }
      const failedRuns = state.failedRuns + 1;
      if (failedRuns >= thresholds.failure) {
        this.raise(monitorEnvironmentFailed({ ...base, failedRuns }));
        return 'failed';
      }
      this.raise(runCounted(base));
      return 'none';
    }
    if (state.status === 'error') {
      const recoveredRuns = state.recoveredRuns + 1;
      if (recoveredRuns >= thresholds.recovery) {
        this.raise(monitorEnvironmentRecovered({ ...base, recoveredRuns }));
        return 'recovered';
      }
      this.raise(runCounted(base));
      return 'none';
    }
    if (state.status === 'active' || state.failedRuns > 0) this.raise(runCounted(base));
    return 'none';
  }

  /** A muted environment keeps its status but opens no issue. Muting a muted one changes nothing. */
  mute(muted: boolean, at: string): void {
    const state = this.current;
    if (state.isMuted === muted) return;
    const base = { monitorEnvironmentId: state.id, at };
    this.raise(muted ? monitorEnvironmentMuted(base) : monitorEnvironmentUnmuted(base));
  }

  private get current(): MonitorEnvironmentState {
    if (!this.state) throw new Error('monitor environment has no history');
    return this.state;
  }

  protected evolve(event: MonitorEnvironmentEvent): void {
    switch (event.type) {
      case E.MonitorEnvironmentCreated:
        this.state = {
          id: event.data.monitorEnvironmentId,
          monitorId: event.data.monitorId,
          environment: event.data.environment,
          status: 'active',
          failedRuns: 0,
          recoveredRuns: 0,
          isMuted: false,
        };
        break;
      case E.RunCounted: {
        const state = this.current;
        const failed = FAILURES.has(event.data.outcome);
        if (state.status === 'error') this.state = { ...state, recoveredRuns: failed ? 0 : state.recoveredRuns + 1 };
        else
          this.state = {
            ...state,
            status: failed ? state.status : 'ok',
            failedRuns: failed ? state.failedRuns + 1 : 0,
            failingSince: failed ? (state.failingSince ?? event.data.at) : undefined,
          };
        break;
      }
      case E.MonitorEnvironmentFailed:
        this.state = { ...this.current, status: 'error', failedRuns: 0, recoveredRuns: 0, failingSince: this.current.failingSince ?? event.data.at };
        break;
      case E.MonitorEnvironmentRecovered:
        this.state = { ...this.current, status: 'ok', failedRuns: 0, recoveredRuns: 0, failingSince: undefined };
        break;
      case E.MonitorEnvironmentMuted:
        this.state = { ...this.current, isMuted: true };
        break;
      case E.MonitorEnvironmentUnmuted:
        this.state = { ...this.current, isMuted: false };
        break;
      default: {
        const unknown: never = event;
        throw new Error(`unknown monitor environment event ${(unknown as { type: string }).type}`);
      }
    }
  }
}
