import { Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@faultline/kernel';
import type { Transaction } from '@faultline/platform';
import { ProjectEventTypes } from '@faultline/projects';

/**
 * A project that moves to another organization (`projects.ProjectTransferred`) takes its monitors
 * along, in the same transaction, so check-ins to them keep arriving there. A monitor whose slug
 * the receiving organization already uses gets its id appended (slugs are unique per organization);
 * closing check-ins still waiting for their opening one are dropped, as their wait is brief anyway.
 */
@Injectable()
export class MonitorTransferRehoming {
  readonly onAppended = async (tx: Transaction, events: readonly RecordedEvent[]): Promise<void> => {
    for (const event of events) {
      if (event.type !== ProjectEventTypes.ProjectTransferred) continue;
      const { projectId, fromOrganizationId, toOrganizationId } = event.data as { projectId: string; fromOrganizationId: string; toOrganizationId: string };
      const params = [projectId, fromOrganizationId, toOrganizationId];
      await tx.query(
        `UPDATE monitors.monitors m SET organization_id = $3,
           slug = CASE WHEN EXISTS (SELECT 1 FROM monitors.monitors t WHERE t.organization_id = $3 AND t.slug = m.slug)
                       THEN left(m.slug, 30) || '-' || m.id::text ELSE m.slug END
         WHERE m.project_id = $1 AND m.organization_id = $2`,
        params,
      );
      await tx.query(`DELETE FROM monitors.unpaired_check_ins WHERE project_id = $1 AND organization_id = $2`, [projectId, fromOrganizationId]);
    }
  };
}
