import type { DeadLetterScope } from '../../../contracts/dead-letter-scope';

/** Deletes dead letters for good; answers how many. */
export class DeleteDeadLettersCommand {
  constructor(readonly scope: DeadLetterScope) {}
}
