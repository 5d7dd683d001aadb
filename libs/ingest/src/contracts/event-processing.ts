/**
 * Processes accepted events (normalises, groups, stores them). The ingest module runs it in the
 * worker role and wakes it when an event arrives; tests, benchmarks and operators drain it.
 */
export abstract class EventProcessing {
  /** Processes until no event is due and no batch of this process is under way; answers how many events this call handled. */
  abstract drain(): Promise<number>;
}
