import type { DeadLetterScope } from '../../../infrastructure/dead-letters.repository';

/** Deletes dead letters for good; answers how many. */
export class DeleteDeadLettersCommand {
  constructor(readonly scope: DeadLetterScope) {}
}
