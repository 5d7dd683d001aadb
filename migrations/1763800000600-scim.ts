import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SCIM provisioning: the member and team attributes identity providers keep (identity's tables),
 * the billing role Sentry's SCIM clients grant, member counts, the organizations' SAML auth
 * providers with their SCIM token, and the read views the SCIM context queries.
 */
export class Scim1763800000600 implements MigrationInterface {
  name = 'Scim1763800000600';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE organization_members DROP CONSTRAINT organization_members_role_check;
      ALTER TABLE organization_members ADD CONSTRAINT organization_members_role_check
        CHECK (role IN ('billing', 'member', 'admin', 'manager', 'owner'));
      ALTER TABLE organization_members
        ADD COLUMN is_active boolean NOT NULL DEFAULT true,
        ADD COLUMN external_id text,
        ADD COLUMN display_name text,
        ADD COLUMN name_parts jsonb,
        ADD COLUMN emails jsonb NOT NULL DEFAULT '[]',
        ADD COLUMN idp_provisioned boolean NOT NULL DEFAULT false,
        ADD COLUMN version integer NOT NULL DEFAULT 1,
        ADD COLUMN date_updated timestamptz NOT NULL DEFAULT now();
      -- Stable paging of an organization's members, and the lookups identity providers make.
      CREATE INDEX organization_members_organization_idx ON organization_members (organization_id, id);
      CREATE INDEX organization_members_external_id_idx ON organization_members (organization_id, external_id);

      -- How many members each organization has, kept by statement triggers, so an unfiltered SCIM
      -- list (an identity provider importing every user) does not count 100,000 index entries.
      -- removals counts members ever removed: while it stands still, a member's position in id order
      -- can only move when a member with a smaller id is added, which ids in sequence make rare.
      CREATE TABLE organization_member_counts (
        organization_id bigint PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
        members bigint NOT NULL,
        removals bigint NOT NULL DEFAULT 0
      );
      INSERT INTO organization_member_counts (organization_id, members)
        SELECT organization_id, count(*) FROM organization_members GROUP BY organization_id;
      CREATE FUNCTION count_organization_members() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO organization_member_counts (organization_id, members)
            SELECT organization_id, count(*) FROM added_members GROUP BY organization_id ORDER BY organization_id
            ON CONFLICT (organization_id) DO UPDATE SET members = organization_member_counts.members + EXCLUDED.members;
        ELSE
          UPDATE organization_member_counts c SET members = c.members - d.n, removals = c.removals + d.n
            FROM (SELECT organization_id, count(*) AS n FROM removed_members GROUP BY organization_id) d
            WHERE c.organization_id = d.organization_id;
        END IF;
        RETURN NULL;
      END $$;
      CREATE TRIGGER organization_members_counted_on_insert AFTER INSERT ON organization_members
        REFERENCING NEW TABLE AS added_members FOR EACH STATEMENT EXECUTE FUNCTION count_organization_members();
      CREATE TRIGGER organization_members_counted_on_delete AFTER DELETE ON organization_members
        REFERENCING OLD TABLE AS removed_members FOR EACH STATEMENT EXECUTE FUNCTION count_organization_members();

      ALTER TABLE teams
        ADD COLUMN external_id text,
        ADD COLUMN idp_provisioned boolean NOT NULL DEFAULT false,
        ADD COLUMN version integer NOT NULL DEFAULT 1,
        ADD COLUMN date_updated timestamptz NOT NULL DEFAULT now();
      CREATE INDEX teams_organization_name_idx ON teams (organization_id, lower(name));

      CREATE TABLE auth_providers (
        organization_id bigint PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
        id bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        provider text NOT NULL CHECK (provider IN ('saml2')),
        idp_entity_id text NOT NULL,
        sso_url text NOT NULL,
        x509cert text NOT NULL,
        scim_enabled boolean NOT NULL DEFAULT false,
        scim_token_hash text UNIQUE,
        scim_token_last_characters text,
        date_created timestamptz NOT NULL DEFAULT now(),
        date_updated timestamptz NOT NULL DEFAULT now(),
        CHECK (scim_enabled = (scim_token_hash IS NOT NULL))
      );

      -- What the SCIM context reads of identity: members as SCIM Users, teams as SCIM Groups.
      -- users is LEFT JOINed (every member has one) so that PostgreSQL drops the join from counts
      -- and pages that do not look at the user's columns.
      CREATE VIEW scim_users AS
        SELECT m.id, m.organization_id, m.user_id, u.email AS user_name, m.role, m.is_active AS active,
               m.external_id, m.display_name, m.name_parts,
               CASE WHEN jsonb_array_length(m.emails) = 0
                    THEN jsonb_build_array(jsonb_build_object('value', u.email, 'type', 'work', 'primary', true))
                    ELSE m.emails END AS emails,
               m.version, m.date_created AS created, m.date_updated AS last_modified
        FROM organization_members m LEFT JOIN users u ON u.id = m.user_id;

      CREATE VIEW scim_groups AS
        SELECT t.id, t.organization_id, t.slug, t.name AS display_name, t.external_id, t.version,
               t.date_created AS created, t.date_updated AS last_modified
        FROM teams t;

      CREATE VIEW scim_group_members AS
        SELECT tm.team_id, tm.member_id, u.email AS display
        FROM team_members tm JOIN organization_members m ON m.id = tm.member_id JOIN users u ON u.id = m.user_id;
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      DROP VIEW scim_group_members, scim_groups, scim_users;
      DROP TABLE auth_providers;
      DROP TRIGGER organization_members_counted_on_insert ON organization_members;
      DROP TRIGGER organization_members_counted_on_delete ON organization_members;
      DROP FUNCTION count_organization_members();
      DROP TABLE organization_member_counts;
      DROP INDEX teams_organization_name_idx;
      ALTER TABLE teams DROP COLUMN external_id, DROP COLUMN idp_provisioned, DROP COLUMN version, DROP COLUMN date_updated;
      DROP INDEX organization_members_external_id_idx, organization_members_organization_idx;
      ALTER TABLE organization_members DROP COLUMN is_active, DROP COLUMN external_id, DROP COLUMN display_name,
        DROP COLUMN name_parts, DROP COLUMN emails, DROP COLUMN idp_provisioned, DROP COLUMN version, DROP COLUMN date_updated;
      DELETE FROM organization_members WHERE role = 'billing';
      ALTER TABLE organization_members DROP CONSTRAINT organization_members_role_check;
      ALTER TABLE organization_members ADD CONSTRAINT organization_members_role_check
        CHECK (role IN ('member', 'admin', 'manager', 'owner'));
    `);
  }
}
