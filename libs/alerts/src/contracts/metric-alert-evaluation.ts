/**
 * Evaluates the metric alert rules that are due. The alerts module runs it on a schedule in the
 * worker role; tests and the CLI call it directly.
 */
export abstract class MetricAlertEvaluation {
  /** Evaluates until no rule is due, waiting for rules other processes hold; answers how many it evaluated. */
  abstract evaluateDue(): Promise<number>;
}
