/**
 * Finds missed and timed-out runs. The monitors module runs it on a schedule in the worker role;
 * tests and the CLI call it directly.
 */
export abstract class MonitorSweep {
  /** Sweeps until nothing is due, waiting for environments other processes hold; answers how many environments it handled. */
  abstract sweepDue(): Promise<number>;
}
