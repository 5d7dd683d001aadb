import type { MigrationInterface, QueryRunner } from 'typeorm';

export class IdentityAndProjects1763800000100 implements MigrationInterface {
  name = 'IdentityAndProjects1763800000100';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE users (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        email text NOT NULL,
        name text NOT NULL DEFAULT '',
        is_superuser boolean NOT NULL DEFAULT false,
        is_active boolean NOT NULL DEFAULT true,
        date_joined timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX users_email_key ON users (lower(email));

      CREATE TABLE organizations (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        slug text NOT NULL UNIQUE,
        name text NOT NULL,
        plan text NOT NULL DEFAULT 'free' CHECK (plan IN ('free', 'team', 'business', 'enterprise')),
        features text[] NOT NULL DEFAULT '{}',
        date_created timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE organization_members (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        role text NOT NULL CHECK (role IN ('member', 'admin', 'manager', 'owner')),
        date_created timestamptz NOT NULL DEFAULT now(),
        UNIQUE (organization_id, user_id)
      );
      CREATE INDEX organization_members_user_idx ON organization_members (user_id);

      CREATE TABLE teams (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        slug text NOT NULL,
        name text NOT NULL,
        date_created timestamptz NOT NULL DEFAULT now(),
        UNIQUE (organization_id, slug)
      );

      CREATE TABLE team_members (
        team_id bigint NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
        member_id bigint NOT NULL REFERENCES organization_members(id) ON DELETE CASCADE,
        PRIMARY KEY (team_id, member_id)
      );
      CREATE INDEX team_members_member_idx ON team_members (member_id);

      CREATE TABLE api_tokens (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('user', 'organization')),
        user_id bigint REFERENCES users(id) ON DELETE CASCADE,
        organization_id bigint REFERENCES organizations(id) ON DELETE CASCADE,
        name text NOT NULL DEFAULT '',
        token_hash text NOT NULL UNIQUE,
        token_last_characters text NOT NULL,
        scopes text[] NOT NULL,
        date_created timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz,
        last_used_at timestamptz,
        CHECK ((kind = 'user' AND user_id IS NOT NULL) OR (kind = 'organization' AND organization_id IS NOT NULL))
      );
      CREATE INDEX api_tokens_user_idx ON api_tokens (user_id);
      CREATE INDEX api_tokens_organization_idx ON api_tokens (organization_id);

      CREATE TABLE projects (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        slug text NOT NULL,
        name text NOT NULL,
        platform text,
        status text NOT NULL DEFAULT 'active',
        features text[] NOT NULL DEFAULT '{}',
        first_event timestamptz,
        date_created timestamptz NOT NULL DEFAULT now(),
        UNIQUE (organization_id, slug)
      );

      CREATE TABLE project_teams (
        project_id bigint NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        team_id bigint NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
        PRIMARY KEY (project_id, team_id)
      );
      CREATE INDEX project_teams_team_idx ON project_teams (team_id);

      CREATE TABLE project_bookmarks (
        project_id bigint NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        PRIMARY KEY (project_id, user_id)
      );

      CREATE TABLE project_keys (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project_id bigint NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        label text NOT NULL DEFAULT 'Default',
        public_key text NOT NULL UNIQUE,
        secret_key text NOT NULL,
        is_active boolean NOT NULL DEFAULT true,
        rate_limit_count integer,
        rate_limit_window integer,
        date_created timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX project_keys_project_idx ON project_keys (project_id);
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      DROP TABLE project_keys, project_bookmarks, project_teams, projects, api_tokens, team_members, teams,
        organization_members, organizations, users;
    `);
  }
}
