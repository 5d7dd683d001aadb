import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The module's tables move into its own schema, `ticket_tracker`, with their rows and indexes. */
export class TicketTrackerSchema1763900000100 implements MigrationInterface {
  name = 'TicketTrackerSchema1763900000100';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE SCHEMA IF NOT EXISTS ticket_tracker;
      ALTER TABLE public.ticket_tracker_installation SET SCHEMA ticket_tracker;
      ALTER TABLE public.ticket_tracker_tickets SET SCHEMA ticket_tracker;
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE ticket_tracker.ticket_tracker_tickets SET SCHEMA public;
      ALTER TABLE ticket_tracker.ticket_tracker_installation SET SCHEMA public;
      DROP SCHEMA ticket_tracker;
    `);
  }
}
