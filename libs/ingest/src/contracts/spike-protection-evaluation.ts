/**
 * Evaluates the organizations whose spike protection is due. The ingest module runs it on a
 * schedule in the worker role; tests and the CLI call it directly.
 */
export abstract class SpikeProtectionEvaluation {
  /** Evaluates until no organization is due, waiting for those other processes hold; answers how many it evaluated. */
  abstract evaluateDue(): Promise<number>;
}
