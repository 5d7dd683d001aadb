import { isNumericId } from '@faultline/kernel';
import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';
import type { SchemaElement, SentryAppStatus } from '../domain';

export interface SentryAppRow {
  id: string;
  uuid: string;
  slug: string;
  name: string;
  owner_organization_id: string;
  owner_slug: string;
  is_internal: boolean;
  status: SentryAppStatus;
  webhook_url: string | null;
  redirect_url: string | null;
  verify_install: boolean;
  scopes: string[];
  events: string[];
  is_alertable: boolean;
  schema: { elements?: SchemaElement[] };
  allowed_origins: string[];
  webhook_headers: string[];
  overview: string | null;
  author: string | null;
  client_id: string;
  client_secret: string;
  date_created: Date;
  date_updated: Date;
  date_published: Date | null;
}

export interface NewSentryApp {
  uuid: string;
  slug: string;
  name: string;
  ownerOrganizationId: string;
  isInternal: boolean;
  webhookUrl: string | null;
  redirectUrl: string | null;
  verifyInstall: boolean;
  scopes: string[];
  events: string[];
  isAlertable: boolean;
  schema: object;
  allowedOrigins: string[];
  webhookHeaders: string[];
  overview: string | null;
  author: string | null;
  clientId: string;
  clientSecret: string;
  createdBy: string | null;
}

export type SentryAppChanges = Partial<
  Pick<
    NewSentryApp,
    | 'name'
    | 'webhookUrl'
    | 'redirectUrl'
    | 'verifyInstall'
    | 'scopes'
    | 'events'
    | 'isAlertable'
    | 'schema'
    | 'allowedOrigins'
    | 'webhookHeaders'
    | 'overview'
    | 'author'
    | 'clientSecret'
  >
> & {
  status?: SentryAppStatus;
};

const COLUMNS = `a.id, a.uuid, a.slug, a.name, a.owner_organization_id, o.slug AS owner_slug, a.is_internal, a.status, a.webhook_url,
  a.redirect_url, a.verify_install, a.scopes, a.events, a.is_alertable, a.schema, a.allowed_origins, a.webhook_headers, a.overview,
  a.author, a.client_id, a.client_secret, a.date_created, a.date_updated, a.date_published`;
const FROM = `integrations.sentry_apps a JOIN identity.organization_directory o ON o.id = a.owner_organization_id`;

const CHANGE_COLUMNS: Record<keyof SentryAppChanges, string> = {
  name: 'name',
  webhookUrl: 'webhook_url',
  redirectUrl: 'redirect_url',
  verifyInstall: 'verify_install',
  scopes: 'scopes',
  events: 'events',
  isAlertable: 'is_alertable',
  schema: 'schema',
  allowedOrigins: 'allowed_origins',
  webhookHeaders: 'webhook_headers',
  overview: 'overview',
  author: 'author',
  clientSecret: 'client_secret',
  status: 'status',
};

@Injectable()
export class SentryAppsRepository {
  async insert(sql: Sql, app: NewSentryApp): Promise<SentryAppRow> {
    const [{ id }] = await sql.query<{ id: string }>(
      `INSERT INTO integrations.sentry_apps (uuid, slug, name, owner_organization_id, is_internal, status, webhook_url, redirect_url, verify_install,
         scopes, events, is_alertable, schema, allowed_origins, overview, author, client_id, client_secret, created_by, webhook_headers)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::text[], $11::text[], $12, $13::jsonb, $14::text[], $15, $16, $17, $18, $19, $20::text[])
       RETURNING id`,
      [
        app.uuid,
        app.slug,
        app.name,
        app.ownerOrganizationId,
        app.isInternal,
        app.isInternal ? 'internal' : 'unpublished',
        app.webhookUrl,
        app.redirectUrl,
        app.verifyInstall,
        app.scopes,
        app.events,
        app.isAlertable,
        JSON.stringify(app.schema),
        app.allowedOrigins,
        app.overview,
        app.author,
        app.clientId,
        app.clientSecret,
        app.createdBy,
        app.webhookHeaders,
      ],
    );
    return (await this.findById(sql, String(id))) as SentryAppRow;
  }

  async slugTaken(sql: Sql, slug: string): Promise<boolean> {
    const rows = await sql.query(`SELECT 1 FROM integrations.sentry_apps WHERE slug = $1`, [slug]);
    return rows.length > 0;
  }

  async findBySlug(sql: Sql, slug: string, lock = false): Promise<SentryAppRow | null> {
    const [row] = await sql.query<SentryAppRow>(`SELECT ${COLUMNS} FROM ${FROM} WHERE a.slug = $1 ${lock ? 'FOR UPDATE OF a' : ''}`, [slug]);
    return row ?? null;
  }

  /** Sentry's `sentry_app_id_or_slug`: a numeric id or a slug (slugs are never all digits). */
  async findByIdOrSlug(sql: Sql, idOrSlug: string): Promise<SentryAppRow | null> {
    return isNumericId(idOrSlug) ? this.findById(sql, idOrSlug) : this.findBySlug(sql, idOrSlug);
  }

  async findById(sql: Sql, id: string): Promise<SentryAppRow | null> {
    const [row] = await sql.query<SentryAppRow>(`SELECT ${COLUMNS} FROM ${FROM} WHERE a.id = $1`, [id]);
    return row ?? null;
  }

  async findByClientId(sql: Sql, clientId: string): Promise<SentryAppRow | null> {
    const [row] = await sql.query<SentryAppRow>(`SELECT ${COLUMNS} FROM ${FROM} WHERE a.client_id = $1`, [clientId]);
    return row ?? null;
  }

  /** Apps an organization owns, newest first. */
  async listOwned(sql: Sql, organizationId: string, offset: number, limit: number): Promise<SentryAppRow[]> {
    return sql.query<SentryAppRow>(
      `SELECT ${COLUMNS} FROM ${FROM} WHERE a.owner_organization_id = $1 ORDER BY a.date_created DESC, a.id DESC OFFSET $2 LIMIT $3`,
      [organizationId, offset, limit],
    );
  }

  async listByStatus(sql: Sql, status: SentryAppStatus, offset: number, limit: number): Promise<SentryAppRow[]> {
    return sql.query<SentryAppRow>(`SELECT ${COLUMNS} FROM ${FROM} WHERE a.status = $1 ORDER BY a.name, a.id OFFSET $2 LIMIT $3`, [status, offset, limit]);
  }

  async update(sql: Sql, id: string, changes: SentryAppChanges): Promise<void> {
    const sets: string[] = [];
    const params: unknown[] = [id];
    for (const [key, value] of Object.entries(changes) as Array<[keyof SentryAppChanges, unknown]>) {
      if (value === undefined) continue;
      params.push(key === 'schema' ? JSON.stringify(value) : value);
      const cast = key === 'schema' ? '::jsonb' : ['scopes', 'events', 'allowedOrigins', 'webhookHeaders'].includes(key) ? '::text[]' : '';
      sets.push(`${CHANGE_COLUMNS[key]} = $${params.length}${cast}`);
    }
    if (sets.length === 0) return;
    const published = changes.status === 'published' ? ', date_published = now()' : '';
    await sql.execute(`UPDATE integrations.sentry_apps SET ${sets.join(', ')}, date_updated = now()${published} WHERE id = $1`, params);
  }

  /** Where apps' webhooks go, by app uuid: apps without a webhook URL (or deleted) are absent. */
  async webhookReceivers(
    sql: Sql,
    uuids: readonly string[],
  ): Promise<Array<{ uuid: string; webhook_url: string; client_secret: string; webhook_headers: string[] }>> {
    return sql.query(
      `SELECT uuid, webhook_url, client_secret, webhook_headers FROM integrations.sentry_apps WHERE uuid = ANY($1::uuid[]) AND webhook_url IS NOT NULL`,
      [uuids],
    );
  }

  async delete(sql: Sql, id: string): Promise<void> {
    await sql.execute(`DELETE FROM integrations.sentry_apps WHERE id = $1`, [id]);
  }
}
