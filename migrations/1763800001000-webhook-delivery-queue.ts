import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Pending webhook deliveries move to a narrow queue table (due time, claims, target), so claiming
 * and leasing rewrite a small row with two indexes instead of the delivery with its body and six,
 * and finishing a delivery changes no indexed column of `webhook_deliveries` (a HOT update, room
 * for which fillfactor leaves). A row is in the queue exactly while its delivery is pending; the
 * deliveries repository keeps that (no foreign key: its check would lock the delivery on every
 * insert). Finished deliveries are pruned in id order, so their finish-time index goes too. The
 * queue is vacuumed often (by autovacuum and the delivery worker) and never truncated: truncating
 * locks out claims and inserts for a table that will grow back at once.
 */
export class WebhookDeliveryQueue1763800001000 implements MigrationInterface {
  name = 'WebhookDeliveryQueue1763800001000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE webhook_delivery_queue (
        delivery_id bigint PRIMARY KEY,
        target_kind text NOT NULL,
        target_id text NOT NULL,
        due_at timestamptz NOT NULL DEFAULT now(),
        claims integer NOT NULL DEFAULT 0
      ) WITH (vacuum_truncate = false);
      CREATE INDEX webhook_delivery_queue_due_idx ON webhook_delivery_queue (due_at);
      INSERT INTO webhook_delivery_queue (delivery_id, target_kind, target_id, due_at, claims)
        SELECT id, target_kind, target_id, next_attempt_at, attempts FROM webhook_deliveries WHERE status = 'pending';
      DROP INDEX webhook_deliveries_due_idx;
      DROP INDEX webhook_deliveries_finished_idx;
      ALTER TABLE webhook_deliveries SET (fillfactor = 80);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE webhook_deliveries RESET (fillfactor);
      CREATE INDEX webhook_deliveries_finished_idx ON webhook_deliveries (finished_at) WHERE status <> 'pending';
      CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
      UPDATE webhook_deliveries d SET next_attempt_at = q.due_at, attempts = q.claims FROM webhook_delivery_queue q WHERE q.delivery_id = d.id;
      DROP TABLE webhook_delivery_queue;
    `);
  }
}
