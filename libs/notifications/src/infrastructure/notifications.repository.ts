import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';

export interface LoggedMail {
  readonly organizationId: string;
  readonly deliveryGuid: string;
  readonly userId: string | null;
  readonly recipient: string;
  readonly reason: string;
  readonly subject: string;
  readonly issueId: string | null;
}

export interface MailRow {
  id: string;
  delivery_guid: string;
  user_id: string | null;
  recipient: string;
  reason: string;
  subject: string;
  issue_id: string | null;
  created_at: Date;
}

/** The notifications context's own tables. */
@Injectable()
export class NotificationsRepository {
  async logMails(sql: Sql, mails: readonly LoggedMail[]): Promise<void> {
    if (mails.length === 0) return;
    await sql.execute(
      `INSERT INTO notifications.mails (organization_id, delivery_guid, user_id, recipient, reason, subject, issue_id)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::bigint[])
       ON CONFLICT (delivery_guid) DO NOTHING`,
      [
        mails.map((m) => m.organizationId),
        mails.map((m) => m.deliveryGuid),
        mails.map((m) => m.userId),
        mails.map((m) => m.recipient),
        mails.map((m) => m.reason),
        mails.map((m) => m.subject),
        mails.map((m) => m.issueId),
      ],
    );
  }

  async mails(sql: Sql, organizationId: string, offset: number, limit: number): Promise<MailRow[]> {
    return sql.query<MailRow>(
      `SELECT id::text, delivery_guid, user_id::text, recipient, reason, subject, issue_id::text, created_at
       FROM notifications.mails WHERE organization_id = $1::bigint ORDER BY id DESC OFFSET $2 LIMIT $3`,
      [organizationId, offset, limit],
    );
  }

  /** Deletes up to `batch` log entries older than `before`; answers how many went. */
  async pruneMails(sql: Sql, before: Date, batch: number): Promise<number> {
    return sql.execute(`DELETE FROM notifications.mails WHERE id IN (SELECT id FROM notifications.mails WHERE created_at < $1 ORDER BY id LIMIT $2)`, [
      before.toISOString(),
      batch,
    ]);
  }

  /** The users among these who turned this type of notification off. */
  async optedOut(sql: Sql, userIds: readonly string[], type: string): Promise<Set<string>> {
    if (userIds.length === 0) return new Set();
    const rows = await sql.query<{ user_id: string }>(
      `SELECT user_id::text FROM notifications.user_settings WHERE user_id = ANY($1::bigint[]) AND type = $2 AND value = 'never'`,
      [userIds, type],
    );
    return new Set(rows.map((row) => row.user_id));
  }

  async settings(sql: Sql, userId: string): Promise<Map<string, string>> {
    const rows = await sql.query<{ type: string; value: string }>(`SELECT type, value FROM notifications.user_settings WHERE user_id = $1::bigint`, [userId]);
    return new Map(rows.map((row) => [row.type, row.value]));
  }

  async setSetting(sql: Sql, userId: string, type: string, value: string): Promise<void> {
    await sql.execute(
      `INSERT INTO notifications.user_settings (user_id, type, value) VALUES ($1::bigint, $2, $3)
       ON CONFLICT (user_id, type) DO UPDATE SET value = EXCLUDED.value`,
      [userId, type, value],
    );
  }

  async addParticipants(sql: Sql, issueId: string, userIds: readonly string[]): Promise<void> {
    if (userIds.length === 0) return;
    await sql.execute(`INSERT INTO notifications.issue_participants (issue_id, user_id) SELECT $1::bigint, unnest($2::bigint[]) ON CONFLICT DO NOTHING`, [
      issueId,
      userIds,
    ]);
  }

  async participants(sql: Sql, issueId: string): Promise<string[]> {
    const rows = await sql.query<{ user_id: string }>(`SELECT user_id::text FROM notifications.issue_participants WHERE issue_id = $1::bigint`, [issueId]);
    return rows.map((row) => row.user_id);
  }

  async signingKey(sql: Sql): Promise<string> {
    const [row] = await sql.query<{ secret: string }>(`SELECT secret FROM notifications.signing_keys WHERE id = 1`);
    return row.secret;
  }
}
