import type { DeadLetterScope } from '../../../contracts/dead-letter-scope';

/** Moves dead letters back to the ingest queue, to be processed again; answers how many moved. */
export class RetryDeadLettersCommand {
  constructor(readonly scope: DeadLetterScope) {}
}
