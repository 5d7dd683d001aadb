import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SCIM's userName belongs to the membership, not to the account another organization may share:
 * each member keeps its own userName (the account's e-mail unless its organization's SCIM renamed
 * it), unique within the organization, and each account remembers which organization's SCIM
 * created it, the only one that may ever change its e-mail (and only while it alone has it).
 */
export class ScimMembershipUserName1763800001900 implements MigrationInterface {
  name = 'ScimMembershipUserName1763800001900';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE users ADD COLUMN provisioned_by_organization_id bigint REFERENCES organizations(id) ON DELETE SET NULL;
      CREATE INDEX users_provisioned_by_organization_idx ON users (provisioned_by_organization_id) WHERE provisioned_by_organization_id IS NOT NULL;

      ALTER TABLE organization_members ADD COLUMN user_name text;
      UPDATE organization_members m SET user_name = u.email FROM users u WHERE u.id = m.user_id;
      ALTER TABLE organization_members ALTER COLUMN user_name SET NOT NULL;
      CREATE UNIQUE INDEX organization_members_user_name_key ON organization_members (organization_id, lower(user_name));

      -- A column default cannot read another table: a member added without a userName gets its account's e-mail.
      CREATE FUNCTION organization_member_user_name() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.user_name := (SELECT email FROM users WHERE id = NEW.user_id);
        RETURN NEW;
      END $$;
      CREATE TRIGGER organization_members_user_name BEFORE INSERT ON organization_members
        FOR EACH ROW WHEN (NEW.user_name IS NULL) EXECUTE FUNCTION organization_member_user_name();

      CREATE OR REPLACE VIEW scim_users AS
        SELECT m.id, m.organization_id, m.user_id, m.user_name, m.role, m.is_active AS active,
               m.external_id, m.display_name, m.name_parts,
               CASE WHEN jsonb_array_length(m.emails) = 0
                    THEN jsonb_build_array(jsonb_build_object('value', m.user_name, 'type', 'work', 'primary', true))
                    ELSE m.emails END AS emails,
               m.version, m.date_created AS created, m.date_updated AS last_modified
        FROM organization_members m;

      CREATE OR REPLACE VIEW scim_group_members AS
        SELECT tm.team_id, tm.member_id, m.user_name AS display
        FROM team_members tm JOIN organization_members m ON m.id = tm.member_id;
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE OR REPLACE VIEW scim_group_members AS
        SELECT tm.team_id, tm.member_id, u.email AS display
        FROM team_members tm JOIN organization_members m ON m.id = tm.member_id JOIN users u ON u.id = m.user_id;
      CREATE OR REPLACE VIEW scim_users AS
        SELECT m.id, m.organization_id, m.user_id, u.email AS user_name, m.role, m.is_active AS active,
               m.external_id, m.display_name, m.name_parts,
               CASE WHEN jsonb_array_length(m.emails) = 0
                    THEN jsonb_build_array(jsonb_build_object('value', u.email, 'type', 'work', 'primary', true))
                    ELSE m.emails END AS emails,
               m.version, m.date_created AS created, m.date_updated AS last_modified
        FROM organization_members m LEFT JOIN users u ON u.id = m.user_id;
      DROP TRIGGER organization_members_user_name ON organization_members;
      DROP FUNCTION organization_member_user_name();
      DROP INDEX organization_members_user_name_key;
      ALTER TABLE organization_members DROP COLUMN user_name;
      DROP INDEX users_provisioned_by_organization_idx;
      ALTER TABLE users DROP COLUMN provisioned_by_organization_id;
    `);
  }
}
