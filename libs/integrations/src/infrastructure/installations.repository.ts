import { Injectable } from '@nestjs/common';
import { AggregateStreams, type Decided, EventRecorder, EventStore } from '@faultline/event-store';
import type { Sql, Transaction } from '@faultline/platform';
import { Installation, type InstallationEvent, type InstallationState, INSTALLATION_STREAM_TYPE, installationStream } from '../domain';

export interface InstallationRow {
  uuid: string;
  app_id: string;
  organization_id: string;
  status: 'pending' | 'installed' | 'deleted';
  scopes: string[];
  grant_code_hash: string | null;
  grant_expires_at: Date | null;
  token_ids: string[];
  refresh_token_hash: string | null;
  current_token_id: string | null;
  version: number;
  date_created: Date;
  date_updated: Date;
}

/** An installation with what its API answers show of its app and organization. */
export interface InstallationView extends InstallationRow {
  app_uuid: string;
  app_slug: string;
  app_name: string;
  organization_slug: string;
  organization_name: string;
}

const VIEW = `SELECT i.*, a.uuid AS app_uuid, a.slug AS app_slug, a.name AS app_name, o.slug AS organization_slug, o.name AS organization_name
  FROM integrations.sentry_app_installations i JOIN integrations.sentry_apps a ON a.id = i.app_id JOIN identity.organization_directory o ON o.id = i.organization_id`;

/** Who an installation's events are recorded as done by. */
export type InstallationMetadata = { actorType?: 'user' | 'application'; actorId?: string };

/**
 * Loads installations from their streams and appends their decisions through the shared
 * load–decide–append step, writing the `sentry_app_installations` read model from the aggregate's
 * state in the same transaction.
 */
@Injectable()
export class InstallationsRepository {
  private readonly streams: AggregateStreams<Installation, InstallationEvent>;

  constructor(eventStore: EventStore, recorder: EventRecorder) {
    this.streams = new AggregateStreams(eventStore, recorder, {
      streamType: INSTALLATION_STREAM_TYPE,
      rebuild: (history) => Installation.fromHistory(history),
    });
  }

  async load(sql: Sql, uuid: string): Promise<Installation | null> {
    return isUuid(uuid) ? this.streams.load(sql, installationStream(uuid)) : null;
  }

  /** Starts the stream of a new installation and writes its row. */
  async create(tx: Transaction, installation: Installation, metadata?: InstallationMetadata): Promise<void> {
    const events = await this.streams.append(tx, installationStream(installation.snapshot.uuid), installation, metadata);
    await this.updateReadModel(tx, installation, events);
  }

  /** Decides on an installation (see AggregateStreams.decide); null if there is no such installation. */
  async decide<R>(
    tx: Transaction,
    uuid: string,
    decide: (installation: Installation) => R,
    options: { metadata?: InstallationMetadata; loaded?: Installation } = {},
  ): Promise<Decided<Installation, R> | null> {
    if (!isUuid(uuid)) return null;
    const decided = await this.streams.decide(tx, installationStream(uuid), decide, options);
    if (decided) await this.updateReadModel(tx, decided.aggregate, decided.recorded);
    return decided;
  }

  private async updateReadModel(tx: Transaction, installation: Installation, events: readonly unknown[]): Promise<void> {
    if (events.length === 0) return;
    const state = installation.snapshot;
    await tx.execute(
      `INSERT INTO integrations.sentry_app_installations (uuid, app_id, organization_id, status, grant_code_hash, grant_expires_at, token_ids,
         refresh_token_hash, current_token_id, version, date_created, date_updated, scopes)
       VALUES ($1, $2, $3, $4, $5, $6, $7::text[], $8, $9, $10, $11, $12, $13::text[])
       ON CONFLICT (uuid) DO UPDATE SET status = EXCLUDED.status, scopes = EXCLUDED.scopes, grant_code_hash = EXCLUDED.grant_code_hash,
         grant_expires_at = EXCLUDED.grant_expires_at, token_ids = EXCLUDED.token_ids, refresh_token_hash = EXCLUDED.refresh_token_hash,
         current_token_id = EXCLUDED.current_token_id, version = EXCLUDED.version, date_updated = EXCLUDED.date_updated`,
      [
        state.uuid,
        state.appId,
        state.organizationId,
        state.status,
        state.grantCodeHash,
        state.grantExpiresAt,
        state.tokenIds,
        state.refreshTokenHash,
        state.currentTokenId,
        installation.version,
        state.dateCreated,
        state.dateUpdated,
        state.scopes,
      ],
    );
  }

  async find(sql: Sql, uuid: string): Promise<InstallationView | null> {
    if (!isUuid(uuid)) return null;
    const [row] = await sql.query<InstallationView>(`${VIEW} WHERE i.uuid = $1`, [uuid]);
    return row ?? null;
  }

  /** The live installation holding a token, if the token is an installation's. */
  async findByToken(sql: Sql, tokenId: string): Promise<InstallationView | null> {
    const [row] = await sql.query<InstallationView>(`${VIEW} WHERE i.status <> 'deleted' AND $1 = ANY(i.token_ids)`, [tokenId]);
    return row ?? null;
  }

  async findLive(sql: Sql, appId: string, organizationId: string): Promise<InstallationView | null> {
    const [row] = await sql.query<InstallationView>(`${VIEW} WHERE i.app_id = $1 AND i.organization_id = $2 AND i.status <> 'deleted'`, [
      appId,
      organizationId,
    ]);
    return row ?? null;
  }

  /** An organization's live installations, newest first. */
  async listForOrganization(sql: Sql, organizationId: string, offset: number, limit: number): Promise<InstallationView[]> {
    return sql.query<InstallationView>(
      `${VIEW} WHERE i.organization_id = $1 AND i.status <> 'deleted' ORDER BY i.date_created DESC, i.uuid OFFSET $2 LIMIT $3`,
      [organizationId, offset, limit],
    );
  }

  async listLiveForApp(sql: Sql, appId: string): Promise<InstallationView[]> {
    return sql.query<InstallationView>(`${VIEW} WHERE i.app_id = $1 AND i.status <> 'deleted'`, [appId]);
  }

  /** Installations (deleted ones too, for the request log) by uuid. */
  async findMany(sql: Sql, uuids: readonly string[]): Promise<InstallationView[]> {
    const valid = uuids.filter(isUuid);
    if (valid.length === 0) return [];
    return sql.query<InstallationView>(`${VIEW} WHERE i.uuid = ANY($1::uuid[])`, [valid]);
  }

  /** Live installations in the organizations whose app has a webhook URL and subscribes to something, with its subscriptions. */
  async subscribed(sql: Sql, organizationIds: readonly string[]): Promise<Array<InstallationView & { app_events: string[] }>> {
    if (organizationIds.length === 0) return [];
    return sql.query(
      `SELECT i.*, a.uuid AS app_uuid, a.slug AS app_slug, a.name AS app_name, a.events AS app_events, o.slug AS organization_slug, o.name AS organization_name
       FROM integrations.sentry_app_installations i JOIN integrations.sentry_apps a ON a.id = i.app_id JOIN identity.organization_directory o ON o.id = i.organization_id
       WHERE i.organization_id = ANY($1::bigint[]) AND i.status <> 'deleted' AND a.webhook_url IS NOT NULL AND cardinality(a.events) > 0`,
      [organizationIds],
    );
  }
}

/** The state the table holds, in the aggregate's terms, so tests can compare it with a replay. */
export function stateOfRow(row: InstallationRow): InstallationState {
  return {
    uuid: row.uuid,
    appId: String(row.app_id),
    organizationId: String(row.organization_id),
    status: row.status,
    scopes: row.scopes,
    grantCodeHash: row.grant_code_hash,
    grantExpiresAt: row.grant_expires_at?.toISOString() ?? null,
    tokenIds: row.token_ids,
    refreshTokenHash: row.refresh_token_hash,
    currentTokenId: row.current_token_id,
    dateCreated: row.date_created.toISOString(),
    dateUpdated: row.date_updated.toISOString(),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID.test(value);
