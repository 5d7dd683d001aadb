import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A DSN key keeps the JavaScript loader settings Sentry's key API takes. */
export class ProjectKeySettings1763800001400 implements MigrationInterface {
  name = 'ProjectKeySettings1763800001400';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE project_keys
        ADD COLUMN browser_sdk_version text NOT NULL DEFAULT 'latest',
        ADD COLUMN dynamic_sdk_loader_options jsonb NOT NULL DEFAULT '{}';
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE project_keys DROP COLUMN browser_sdk_version, DROP COLUMN dynamic_sdk_loader_options`);
  }
}
