import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The append-only event store: `events` (one row per domain event, never updated or deleted) and
 * `event_checkpoints` (one row per durable subscriber of the global stream).
 *
 * Statements run one at a time so they behave the same on PostgreSQL and on PGlite.
 */
export class EventStore1763800000000 implements MigrationInterface {
  name = 'EventStore1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // The constraint names are part of the contract: the event store maps a unique violation of
    // events_stream_id_version_key to ConcurrencyError (optimistic concurrency lives in the schema).
    await queryRunner.query(`
      CREATE TABLE events (
        global_position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        stream_id text NOT NULL,
        stream_type text NOT NULL,
        version integer NOT NULL CHECK (version > 0),
        event_id uuid NOT NULL,
        event_type text NOT NULL,
        schema_version integer NOT NULL DEFAULT 1,
        data jsonb NOT NULL,
        metadata jsonb NOT NULL DEFAULT '{}',
        transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
        recorded_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT events_event_id_key UNIQUE (event_id),
        CONSTRAINT events_stream_id_version_key UNIQUE (stream_id, version)
      )`);
    // Global readers go in (transaction_id, global_position) order behind the xmin guard; these
    // indexes serve that scan unfiltered and filtered by stream type.
    await queryRunner.query('CREATE INDEX events_transaction_position_idx ON events (transaction_id, global_position)');
    await queryRunner.query('CREATE INDEX events_stream_type_position_idx ON events (stream_type, transaction_id, global_position)');

    // History is immutable: corrections are new events, never edits.
    await queryRunner.query(`
      CREATE FUNCTION events_reject_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'events are append-only: % is not allowed', TG_OP
          USING ERRCODE = 'restrict_violation';
      END
      $$`);
    await queryRunner.query(`
      CREATE TRIGGER events_append_only
        BEFORE UPDATE OR DELETE ON events
        FOR EACH ROW EXECUTE FUNCTION events_reject_change()`);

    await queryRunner.query(`
      CREATE TABLE event_checkpoints (
        subscriber text PRIMARY KEY,
        position bigint NOT NULL DEFAULT 0,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE IF EXISTS event_checkpoints');
    await queryRunner.query('DROP TABLE IF EXISTS events');
    await queryRunner.query('DROP FUNCTION IF EXISTS events_reject_change()');
  }
}
