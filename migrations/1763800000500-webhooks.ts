import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Service hooks and the delivery engine. A delivery is one (target, cause) pair with its body
 * serialised once; `next_attempt_at` doubles as the lease of a claimed delivery, so a worker that
 * dies mid-request leaves it due again once its deadline passes. An attempt's request body is its
 * delivery's body (the same bytes every time), so attempts keep only headers and the response.
 */
export class Webhooks1763800000500 implements MigrationInterface {
  name = 'Webhooks1763800000500';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE service_hooks (
        id text PRIMARY KEY,
        project_id bigint NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        url text NOT NULL,
        secret text NOT NULL,
        events text[] NOT NULL,
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
        disabled_reason text,
        failing_since timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX service_hooks_project_idx ON service_hooks (project_id, created_at DESC);

      CREATE TABLE webhook_deliveries (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        guid text NOT NULL UNIQUE,
        target_kind text NOT NULL,
        target_id text NOT NULL,
        cause text NOT NULL,
        event_type text NOT NULL,
        body text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        last_status_code integer,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        UNIQUE (target_kind, target_id, cause, event_type)
      );
      CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
      CREATE INDEX webhook_deliveries_target_idx ON webhook_deliveries (target_kind, target_id, id DESC);
      CREATE INDEX webhook_deliveries_finished_idx ON webhook_deliveries (finished_at) WHERE status <> 'pending';

      CREATE TABLE webhook_attempts (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        delivery_id bigint NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
        attempted_at timestamptz NOT NULL,
        duration_ms integer NOT NULL,
        status_code integer,
        error text,
        request_headers json NOT NULL,
        response_headers json,
        response_body text
      );
      CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, id DESC);
      CREATE INDEX webhook_attempts_time_idx ON webhook_attempts (attempted_at);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE webhook_attempts, webhook_deliveries, service_hooks`);
  }
}
