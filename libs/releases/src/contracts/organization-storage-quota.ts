import { PayloadTooLargeException } from '@nestjs/common';
import type { Sql } from '@faultline/platform';

/**
 * The budget of bytes one organization may keep stored (`ORGANIZATION_STORAGE_MAX_BYTES`), counted
 * durably: whoever stores tenant bytes charges them in the transaction that stores them, and frees
 * them in the one that deletes them. Source-map uploads do today; event attachments, which ingest
 * counts and drops, are to charge it when they are kept.
 */
export abstract class OrganizationStorageQuota {
  /** Adds bytes to the organization's total; over the budget it changes nothing and throws StorageQuotaExceeded (413). */
  abstract charge(sql: Sql, organizationId: string, bytes: number): Promise<void>;
  abstract free(sql: Sql, organizationId: string, bytes: number): Promise<void>;
}

export class StorageQuotaExceeded extends PayloadTooLargeException {
  constructor(readonly maxBytes: number) {
    super({ detail: `The organization's stored uploads would exceed its storage quota of ${maxBytes} bytes. Delete releases or files to free space.` });
  }
}
