import { randomUUID } from 'node:crypto';
import type { MigrationInterface } from 'typeorm';
import { MIGRATIONS } from '../../migrations';
import { ContextSchemas1763800003000 } from '../../migrations/1763800003000-context-schemas';
import type { TestDatabase } from './test-database';

/** A new organization with a project `web`, for rows a migration test stores; answers the project's id. */
export async function insertProject({ database }: TestDatabase): Promise<string> {
  const [{ id: organizationId }] = await database.query<{ id: string }>(`INSERT INTO identity.organizations (slug, name) VALUES ($1, 'Acme') RETURNING id`, [
    `acme-${randomUUID()}`,
  ]);
  const [{ id }] = await database.query<{ id: string }>(`INSERT INTO projects.projects (organization_id, slug, name) VALUES ($1, 'web', 'Web') RETURNING id`, [
    organizationId,
  ]);
  return String(id);
}

/**
 * Runs a migration down and up again over the rows a test stored, as it runs on a database from
 * before it; `timeZone` sets the session's, which what it computes must not depend on. A migration
 * from before the move into context schemas names tables unqualified, so the move (and whatever
 * follows it) is undone around it and redone after.
 */
export async function rerunMigration(db: TestDatabase, migration: MigrationInterface, { timeZone }: { timeZone?: string } = {}): Promise<void> {
  const position = MIGRATIONS.findIndex((m) => migration instanceof m);
  const move = MIGRATIONS.indexOf(ContextSchemas1763800003000);
  const around = position < move ? MIGRATIONS.slice(move).map((m) => new m()) : [];
  const runner = db.dataSource.createQueryRunner();
  try {
    for (const later of [...around].reverse()) await later.down?.(runner);
    if (timeZone) await runner.query(`SET TIME ZONE '${timeZone}'`);
    await migration.down?.(runner);
    await migration.up(runner);
    if (timeZone) await runner.query('RESET TIME ZONE');
    for (const later of around) await later.up(runner);
  } finally {
    await runner.release();
  }
}
