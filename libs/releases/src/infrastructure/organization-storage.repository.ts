import { Inject, Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';
import { OrganizationStorageQuota, StorageQuotaExceeded } from '../contracts/organization-storage-quota';
import { RELEASES_CONFIG, type ReleasesConfig } from './releases-config';

/** One usage row per organization; a charge that would pass the budget updates nothing, so it needs no rollback to be undone. */
@Injectable()
export class OrganizationStorage extends OrganizationStorageQuota {
  constructor(@Inject(RELEASES_CONFIG) private readonly config: ReleasesConfig) {
    super();
  }

  async charge(sql: Sql, organizationId: string, bytes: number): Promise<void> {
    if (bytes <= 0) return;
    const max = this.config.organizationStorageMaxBytes;
    const [charged] = await sql.query(
      `INSERT INTO releases.organization_storage AS s (organization_id, stored_bytes) SELECT $1::bigint, $2::bigint WHERE $2::bigint <= $3::bigint
       ON CONFLICT (organization_id) DO UPDATE SET stored_bytes = s.stored_bytes + EXCLUDED.stored_bytes WHERE s.stored_bytes + EXCLUDED.stored_bytes <= $3::bigint
       RETURNING 1`,
      [organizationId, bytes, max],
    );
    if (!charged) throw new StorageQuotaExceeded(max);
  }

  async free(sql: Sql, organizationId: string, bytes: number): Promise<void> {
    if (bytes <= 0) return;
    await sql.execute(`UPDATE releases.organization_storage SET stored_bytes = greatest(stored_bytes - $2, 0) WHERE organization_id = $1`, [
      organizationId,
      bytes,
    ]);
  }
}
