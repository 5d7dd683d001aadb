import type { DeadLetterScope } from '../../contracts/dead-letter-scope';

/** Dead letters, newest first; answers DeadLetter[]. */
export class ListDeadLettersQuery {
  constructor(
    readonly scope: DeadLetterScope,
    readonly offset: number,
    readonly limit: number,
  ) {}
}

/** An accepted event that processing set aside, as the API and the CLI show it. */
export interface DeadLetter {
  readonly id: string;
  readonly eventId: string;
  readonly organizationId: string;
  readonly projectId: string;
  readonly projectSlug: string;
  /** Why its last attempt failed. */
  readonly reason: string;
  readonly attempts: number;
  readonly dateReceived: string;
  readonly dateFailed: string;
  /** Bytes of the event as the SDK sent it. */
  readonly size: number;
}
