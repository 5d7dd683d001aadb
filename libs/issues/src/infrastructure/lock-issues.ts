import { DomainError, isNumericId } from '@faultline/kernel';
import type { Transaction } from '@faultline/platform';
import { NOT_BEING_REMOVED } from './issue-event-moves.repository';

/**
 * Locks issues of an organization (and of one project, when given) for a change, and answers their
 * ids in lock order. Any id that is not such an issue makes the whole request 404.
 *
 * The rows are locked in id order, the order the ingest path locks them in, so a change and an
 * ingest batch that meet on several issues cannot deadlock; holding the row also makes an event
 * that arrives meanwhile see the new status (and, say, reopen an issue resolved a moment before).
 * `FOR NO KEY UPDATE`, as the ingest path takes: storing an event only needs a key-share lock.
 * A merge takes `FOR UPDATE`: an event being stored into an issue it merges is stored first, and
 * its moves take it along. An issue merged away or being deleted is not found.
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
    `SELECT i.id::text AS id FROM issues.issues i
     WHERE ${NOT_BEING_REMOVED} AND i.id = ANY($2::bigint[]) AND i.project_id IN (SELECT id FROM projects.project_directory WHERE organization_id = $1::bigint) ${project}
     ORDER BY i.id FOR ${strength === 'UPDATE' ? 'UPDATE' : 'NO KEY UPDATE'}`,
    params,
  );
  if (rows.length !== unique.length) throw DomainError.notFound();
  return rows.map((row) => row.id);
}
