import { DomainError } from '@faultline/kernel';
import type { Transaction } from '@faultline/platform';

/**
 * Locks issues of an organization (and of one project, when given) for a change, and answers their
 * ids in lock order. Any id that is not such an issue makes the whole request 404.
 *
 * The rows are locked one by one in the order the ingest path locks them (by the string
 * `project_id|fingerprint_hash`), so a change and an ingest batch that meet on several issues
 * cannot deadlock; holding the row also makes an event that arrives meanwhile see the new status
 * (and, say, reopen an issue resolved a moment before).
 */
export async function lockIssues(
  tx: Transaction,
  organizationId: string,
  issueIds: readonly string[],
  projectId?: string,
): Promise<string[]> {
  const unique = [...new Set(issueIds)];
  if (unique.length === 0 || unique.some((id) => !/^\d{1,18}$/.test(id))) throw DomainError.notFound();
  const params: unknown[] = [organizationId, unique];
  const project = projectId ? `AND project_id = $${params.push(projectId)}::bigint` : '';
  const rows = await tx.query<{ id: string; key: string }>(
    `SELECT id::text AS id, project_id::text || '|' || fingerprint_hash AS key FROM issues
     WHERE id = ANY($2::bigint[]) AND project_id IN (SELECT id FROM projects WHERE organization_id = $1::bigint) ${project}`,
    params,
  );
  if (rows.length !== unique.length) throw DomainError.notFound();
  rows.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (const row of rows) {
    const [locked] = await tx.query(`SELECT id FROM issues WHERE id = $1::bigint FOR UPDATE`, [row.id]);
    if (!locked) throw DomainError.notFound();
  }
  return rows.map((row) => row.id);
}
