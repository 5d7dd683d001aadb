import { Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@faultline/kernel';
import type { Transaction } from '@faultline/platform';
import { ProjectEventTypes } from '@faultline/projects';

/**
 * Releases belong to organizations; when a project moves to another one (`projects.ProjectTransferred`),
 * its releases, release health and the artifact bundles only it uses follow it in the same
 * transaction, so its issues, symbolication and release pages keep working there. A release of the
 * same version already in the receiving organization takes the project; the sending organization
 * keeps its release for its other projects.
 */
@Injectable()
export class ProjectTransferRehoming {
  readonly onAppended = async (tx: Transaction, events: readonly RecordedEvent[]): Promise<void> => {
    for (const event of events) {
      if (event.type !== ProjectEventTypes.ProjectTransferred) continue;
      const data = event.data as { projectId: string; fromOrganizationId: string; toOrganizationId: string };
      await this.rehome(tx, data.projectId, data.fromOrganizationId, data.toOrganizationId);
    }
  };

  private async rehome(tx: Transaction, projectId: string, from: string, to: string): Promise<void> {
    const params = [projectId, from, to];
    await tx.query(
      `INSERT INTO releases.releases (organization_id, version, ref, url, status, date_created, date_started, date_released)
       SELECT $3, r.version, r.ref, r.url, r.status, r.date_created, r.date_started, r.date_released
       FROM releases.releases r JOIN releases.release_projects rp ON rp.release_id = r.id
       WHERE rp.project_id = $1 AND r.organization_id = $2
       ORDER BY r.id
       ON CONFLICT (organization_id, version) DO NOTHING`,
      params,
    );
    await tx.query(
      `UPDATE releases.release_projects rp SET release_id = n.id
       FROM releases.releases o JOIN releases.releases n ON n.organization_id = $3 AND n.version = o.version
       WHERE rp.project_id = $1 AND rp.release_id = o.id AND o.organization_id = $2`,
      params,
    );
    await tx.query(`UPDATE releases.session_counts SET organization_id = $3 WHERE project_id = $1 AND organization_id = $2`, params);
    // Bundles no other project uses move with their files; a bundle the receiver already holds stays.
    const moved = await tx.query<{ id: string }>(
      `UPDATE releases.artifact_bundles b SET organization_id = $3
       WHERE b.organization_id = $2
         AND EXISTS (SELECT 1 FROM releases.artifact_bundle_projects p WHERE p.bundle_id = b.id AND p.project_id = $1)
         AND NOT EXISTS (SELECT 1 FROM releases.artifact_bundle_projects p WHERE p.bundle_id = b.id AND p.project_id <> $1)
         AND NOT EXISTS (SELECT 1 FROM releases.artifact_bundles t WHERE t.organization_id = $3 AND t.checksum = b.checksum)
       RETURNING b.id::text AS id`,
      params,
    );
    if (moved.length === 0) return;
    const bundleIds = moved.map((row) => row.id);
    await tx.query(
      `INSERT INTO releases.files (organization_id, checksum, size, content)
       SELECT $2, f.checksum, f.size, f.content FROM releases.files f
       WHERE f.organization_id = $1 AND f.checksum IN (SELECT file_checksum FROM releases.artifacts WHERE bundle_id = ANY($3::bigint[]))
       ORDER BY f.checksum
       ON CONFLICT (organization_id, checksum) DO NOTHING`,
      [from, to, bundleIds],
    );
    await tx.query(`UPDATE releases.artifacts SET organization_id = $1 WHERE bundle_id = ANY($2::bigint[])`, [to, bundleIds]);
  }
}
