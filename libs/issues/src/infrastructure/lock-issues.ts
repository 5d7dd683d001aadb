import { DomainError, isNumericId } from '@faultline/kernel';
import type { Transaction } from '@faultline/platform';

/**
 * Locks issues of an organization (and of one project, when given) for a change, and answers their
 * ids in lock order. Any id that is not such an issue makes the whole request 404.
 *
 * The rows are locked in id order, the order the ingest path locks them in, so a change and an
 * ingest batch that meet on several issues cannot deadlock; holding the row also makes an event
 * that arrives meanwhile see the new status (and, say, reopen an issue resolved a moment before).
 * `FOR NO KEY UPDATE`, as the ingest path takes: storing an event only needs a key-share lock.
 * A merge, which deletes the issues it merges, takes `FOR UPDATE`: an event being stored into one
 * of them then waits, and fails rather than go with it.
 */
export async function lockIssues(
  tx: Transaction,
  organizationId: string,
  issueIds: readonly string[],
  projectId?: string,
  strength: 'NO KEY UPDATE' | 'UPDATE' = 'NO KEY UPDATE',
): Promise<string[]> {
  const unique = [...new Set(issueIds)];
  if (unique.length === 0 || unique.some((id) => !isNumericId(id))) throw DomainError.notFound();
  const params: unknown[] = [organizationId, unique];
  const project = projectId ? `AND project_id = $${params.push(projectId)}::bigint` : '';
  const rows = await tx.query<{ id: string }>(
    `SELECT id::text AS id FROM issues.issues
     WHERE id = ANY($2::bigint[]) AND project_id IN (SELECT id FROM projects.project_directory WHERE organization_id = $1::bigint) ${project}
     ORDER BY id FOR ${strength === 'UPDATE' ? 'UPDATE' : 'NO KEY UPDATE'}`,
    params,
  );
  if (rows.length !== unique.length) throw DomainError.notFound();
  return rows.map((row) => row.id);
}

/**
 * Deletes issues locked by lockIssues; their stored events and users go with them (ON DELETE
 * CASCADE), and so do their events' id claims, so an event sent again afterwards is stored again.
 */
export async function deleteIssues(tx: Transaction, ids: readonly string[]): Promise<void> {
  await tx.execute(
    `DELETE FROM issues.event_ids k USING issues.error_events e
     WHERE e.issue_id = ANY($1::bigint[]) AND k.project_id = e.project_id AND k.event_id = e.event_id`,
    [ids],
  );
  await tx.execute(`DELETE FROM issues.issues WHERE id = ANY($1::bigint[])`, [ids]);
}
