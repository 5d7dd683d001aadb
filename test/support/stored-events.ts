import type { Sql } from '@faultline/platform';

/** Stores an event of an issue with its id's claim on the day received, as ingestion writes both. */
export async function storeEvent(
  sql: Sql,
  event: { projectId: string; issueId: string; eventId: string; occurredAt: Date | string; receivedAt: Date | string },
): Promise<void> {
  await sql.execute(
    `WITH stored AS (
       INSERT INTO issues.error_events (project_id, issue_id, event_id, occurred_at, received_at, data) VALUES ($1, $2, $3, $4, $5, '{}')
       RETURNING id, project_id, event_id, received_at)
     INSERT INTO issues.event_ids (project_id, event_id, claimed_on, received_at, id)
     SELECT project_id, event_id, date_trunc('day', received_at, 'UTC'), received_at, id FROM stored`,
    [event.projectId, event.issueId, event.eventId, event.occurredAt, event.receivedAt],
  );
}
