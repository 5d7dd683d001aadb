import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The ticket tracker module's own tables. One row per issue (the issue id is the primary key and
 * the idempotency key of the tracker call), so a redelivered `issues.IssueCreated` never opens a
 * second ticket. `next_attempt_at` doubles as the lease of a claimed row: a process that dies
 * mid-request leaves the row due again once the lease ends. No foreign key reaches into another
 * context's tables.
 */
export class TicketTracker1763900000000 implements MigrationInterface {
  name = 'TicketTracker1763900000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE ticket_tracker_installation (
        singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
        installed_at timestamptz NOT NULL DEFAULT now()
      );
      INSERT INTO ticket_tracker_installation DEFAULT VALUES;

      CREATE TABLE ticket_tracker_tickets (
        issue_id bigint PRIMARY KEY,
        organization_id bigint NOT NULL,
        project_id bigint NOT NULL,
        short_id text NOT NULL,
        title text NOT NULL,
        culprit text NOT NULL DEFAULT '',
        level text NOT NULL DEFAULT 'error',
        source_event_id uuid NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'opened', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        last_error text,
        external_id text,
        url text,
        created_at timestamptz NOT NULL DEFAULT now(),
        opened_at timestamptz
      );
      CREATE INDEX ticket_tracker_tickets_due_idx ON ticket_tracker_tickets (next_attempt_at) WHERE status = 'pending';
      CREATE INDEX ticket_tracker_tickets_organization_idx ON ticket_tracker_tickets (organization_id, issue_id);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE ticket_tracker_tickets; DROP TABLE ticket_tracker_installation;');
  }
}
