import { createHash } from 'node:crypto';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { Inject, Injectable } from '@nestjs/common';
import { Database, type Sql, type Transaction } from '@faultline/platform';
import { OrganizationStorageQuota, StorageQuotaExceeded } from '@faultline/releases';
import { EventAttachmentIntake, type EventAttachmentInput, type EventAttachmentIntakeResult } from '../contracts/event-attachment-intake';
import { chunkRanges, describeAttachment, EVENT_ATTACHMENT_LIMITS, sizeRefusal } from '../domain/event-attachment';
import { ATTACHMENTS_CONFIG, type AttachmentsConfig } from './attachments-config';

export interface EventAttachmentRow {
  id: string;
  event_id: string;
  type: string;
  name: string;
  content_type: string;
  size: number;
  sha1: string;
  date_created: Date;
}

const COLUMNS = `id::text AS id, event_id, type, name, content_type, size::float8 AS size, sha1, date_created`;
/** Attachments deleted per statement by the retention sweep. */
const PRUNE_BATCH = 200;

/**
 * `issues.event_attachments` and their chunks. Every statement that stores or deletes attachment
 * bytes charges or frees them on the organization's storage quota in its own transaction, so the
 * quota never drifts from what is stored.
 */
@Injectable()
export class EventAttachmentsRepository extends EventAttachmentIntake {
  constructor(
    private readonly database: Database,
    private readonly quota: OrganizationStorageQuota,
    @Inject(ATTACHMENTS_CONFIG) private readonly config: AttachmentsConfig,
  ) {
    super();
  }

  /** One transaction for the request's attachments, each in a savepoint: one over the quota leaves the others kept. */
  async keep(attachments: readonly EventAttachmentInput[]): Promise<readonly EventAttachmentIntakeResult[]> {
    if (attachments.length === 0) return [];
    // Hashed before the transaction, so it holds no connection while the event loop does other work.
    const digests: Array<string | null> = [];
    for (const attachment of attachments) digests.push(sizeRefusal(attachment.data.length, this.config.maxBytes) ? null : await sha1(attachment.data));
    return this.database.transaction(async (tx) => {
      const results: EventAttachmentIntakeResult[] = [];
      for (const [index, attachment] of attachments.entries()) {
        const digest = digests[index];
        if (digest === null) {
          results.push({ kept: false, reason: 'too_large' });
          continue;
        }
        try {
          await tx.inSavepoint(() => this.insert(tx, attachment, digest));
          results.push({ kept: true });
        } catch (error) {
          if (!(error instanceof StorageQuotaExceeded)) throw error;
          results.push({ kept: false, reason: 'storage_quota' });
        }
      }
      return results;
    });
  }

  /** The row, its chunks in one statement (bytes go as binary parameters), then the charge: the quota row is locked only at the end. */
  private async insert(tx: Transaction, attachment: EventAttachmentInput, digest: string): Promise<void> {
    const described = describeAttachment(attachment);
    const [row] = await tx.query<{ id: string }>(
      `INSERT INTO issues.event_attachments (organization_id, project_id, event_id, type, name, content_type, size, sha1, date_created)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (project_id, event_id, type, name, sha1) DO NOTHING RETURNING id::text AS id`,
      [
        attachment.organizationId,
        attachment.projectId,
        attachment.eventId,
        described.type,
        described.name,
        described.contentType,
        attachment.data.length,
        digest,
        attachment.receivedAt,
      ],
    );
    // Already kept: an SDK's retry of the same file.
    if (!row) return;
    const ranges = chunkRanges(attachment.data.length);
    if (ranges.length > 0) {
      const params: unknown[] = [row.id];
      const values = ranges.map(([start, end], position) => `($1, ${position}, $${params.push(attachment.data.subarray(start, end))})`);
      await tx.execute(`INSERT INTO issues.event_attachment_chunks (attachment_id, position, content) VALUES ${values.join(', ')}`, params);
    }
    await this.quota.charge(tx, attachment.organizationId, attachment.data.length);
  }

  /** An event's attachments by name (Sentry's order), optionally those whose name contains `nameContains`. */
  async list(projectId: string, eventId: string, page: { offset: number; limit: number }, nameContains?: string): Promise<EventAttachmentRow[]> {
    return this.database.query<EventAttachmentRow>(
      `SELECT ${COLUMNS} FROM issues.event_attachments
       WHERE project_id = $1 AND event_id = $2 AND ($3::text IS NULL OR strpos(lower(name), lower($3)) > 0)
       ORDER BY name, id OFFSET $4 LIMIT $5`,
      [projectId, eventId, nameContains ?? null, page.offset, page.limit],
    );
  }

  async find(projectId: string, eventId: string, attachmentId: string): Promise<EventAttachmentRow | null> {
    const [row] = await this.database.query<EventAttachmentRow>(
      `SELECT ${COLUMNS} FROM issues.event_attachments WHERE project_id = $1 AND event_id = $2 AND id = $3`,
      [projectId, eventId, attachmentId],
    );
    return row ?? null;
  }

  /** One stored chunk (at most EVENT_ATTACHMENT_LIMITS.chunkBytes), or null past the last one or once deleted. */
  async chunk(attachmentId: string, position: number): Promise<Buffer | null> {
    const [row] = await this.database.query<{ content: Buffer }>(
      `SELECT content FROM issues.event_attachment_chunks WHERE attachment_id = $1 AND position = $2`,
      [attachmentId, position],
    );
    return row?.content ?? null;
  }

  /** Deletes one attachment and frees its bytes; answers whether it existed. */
  async delete(projectId: string, eventId: string, attachmentId: string): Promise<boolean> {
    return this.database.transaction(async (tx) => {
      const gone = await tx.query<Freed>(
        `DELETE FROM issues.event_attachments WHERE project_id = $1 AND event_id = $2 AND id = $3 RETURNING organization_id::text AS organization_id, size::float8 AS size`,
        [projectId, eventId, attachmentId],
      );
      await this.free(tx, gone);
      return gone.length > 0;
    });
  }

  /** Deletes the attachments of these stored events (by row id, in the transaction deleting them) and frees their bytes. */
  async deleteOfEvents(tx: Transaction, eventRowIds: readonly string[]): Promise<void> {
    const gone = await tx.query<Freed>(
      `DELETE FROM issues.event_attachments a USING issues.error_events e
       WHERE e.id = ANY($1::bigint[]) AND a.project_id = e.project_id AND a.event_id = e.event_id
       RETURNING a.organization_id::text AS organization_id, a.size::float8 AS size`,
      [eventRowIds],
    );
    await this.free(tx, gone);
  }

  /**
   * Deletes attachments received before `cutoff` (the events' retention; those whose event never
   * came go the same way) and those of deleted projects, a batch per transaction; answers how many.
   */
  async prune(cutoff: Date): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await this.database.transaction(async (tx) => {
        const gone = await tx.query<Freed>(
          `DELETE FROM issues.event_attachments WHERE id IN (
             SELECT id FROM issues.event_attachments WHERE date_created < $1
             UNION ALL
             SELECT a.id FROM issues.event_attachments a WHERE NOT EXISTS (SELECT 1 FROM projects.project_directory p WHERE p.id = a.project_id)
             LIMIT $2)
           RETURNING organization_id::text AS organization_id, size::float8 AS size`,
          [cutoff, PRUNE_BATCH],
        );
        await this.free(tx, gone);
        return gone.length;
      });
      total += deleted;
      if (deleted < PRUNE_BATCH) return total;
    }
  }

  private async free(sql: Sql, gone: readonly Freed[]): Promise<void> {
    const byOrganization = new Map<string, number>();
    for (const { organization_id, size } of gone) byOrganization.set(organization_id, (byOrganization.get(organization_id) ?? 0) + size);
    // In id order, as charges lock the rows, so two deletions never wait on each other crosswise.
    for (const [organizationId, bytes] of [...byOrganization].sort(([a], [b]) => Number(BigInt(a) - BigInt(b)))) {
      await this.quota.free(sql, organizationId, bytes);
    }
  }
}

interface Freed {
  organization_id: string;
  size: number;
}

/** SHA-1 (Sentry's checksum) a chunk at a time, letting other requests run between chunks. */
async function sha1(data: Buffer): Promise<string> {
  const hash = createHash('sha1');
  for (const [start, end] of chunkRanges(data.length, EVENT_ATTACHMENT_LIMITS.chunkBytes)) {
    hash.update(data.subarray(start, end));
    await yieldToLoop();
  }
  return hash.digest('hex');
}
