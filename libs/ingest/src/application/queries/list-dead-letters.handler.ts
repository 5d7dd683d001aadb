import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Database } from '@faultline/platform';
import { type DeadLetterRow, DeadLettersRepository } from '../../infrastructure/dead-letters.repository';
import { type DeadLetter, ListDeadLettersQuery } from './list-dead-letters.query';

@QueryHandler(ListDeadLettersQuery)
export class ListDeadLettersHandler implements IQueryHandler<ListDeadLettersQuery, DeadLetter[]> {
  constructor(
    private readonly database: Database,
    private readonly deadLetters: DeadLettersRepository,
  ) {}

  async execute({ scope, offset, limit }: ListDeadLettersQuery): Promise<DeadLetter[]> {
    return (await this.deadLetters.list(this.database, scope, offset, limit)).map(deadLetterOf);
  }
}

export function deadLetterOf(row: DeadLetterRow): DeadLetter {
  return {
    id: String(row.id),
    eventId: row.event_id,
    organizationId: String(row.organization_id),
    projectId: String(row.project_id),
    projectSlug: row.project_slug,
    reason: row.reason,
    attempts: row.attempts,
    dateReceived: row.received_at.toISOString(),
    dateFailed: row.failed_at.toISOString(),
    size: row.size,
  };
}
