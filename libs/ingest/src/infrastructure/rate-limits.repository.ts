import { Injectable } from '@nestjs/common';
import type { Sql, Transaction } from '@faultline/platform';
import { type QuotaCategory, type QuotaScope, type SpikeState, type WindowCount } from '../domain';

export interface WindowQuantities {
  /** The key's or organization's id. */
  readonly id: string;
  readonly windowSeconds: number;
  readonly quantities: ReadonlyArray<{ readonly category: QuotaCategory; readonly quantity: number }>;
}

/** An organization's own rate-limit settings and spike state. */
export interface OrganizationRateLimits {
  readonly spikeProtection: boolean;
  /** Its own quotas per category (items per organization window); 0 means none, even where the instance sets one. */
  readonly quotas: Partial<Record<QuotaCategory, number>>;
  readonly spikeThreshold: number | null;
  readonly spike: SpikeState;
}

export const DEFAULT_ORGANIZATION_RATE_LIMITS: OrganizationRateLimits = {
  spikeProtection: true,
  quotas: {},
  spikeThreshold: null,
  spike: { startedAt: null, limitedUntil: null },
};

interface SettingsRow {
  spike_protection: boolean;
  quotas: Partial<Record<QuotaCategory, number>>;
  spike_threshold: number | null;
  spike_started_at: Date | null;
  spike_limited_until: Date | null;
}

export interface DueOrganization extends OrganizationRateLimits {
  readonly organizationId: string;
  readonly baselineErrors: number;
  readonly currentHourErrors: number;
}

function windowStart(now: Date, windowSeconds: number): Date {
  const windowMs = windowSeconds * 1000;
  return new Date(Math.floor(now.getTime() / windowMs) * windowMs);
}

function limitsOf(row: SettingsRow): OrganizationRateLimits {
  return {
    spikeProtection: row.spike_protection,
    quotas: row.quotas,
    spikeThreshold: row.spike_threshold,
    spike: { startedAt: row.spike_started_at, limitedUntil: row.spike_limited_until },
  };
}

/** Quota windows of keys and organizations, organizations' rate-limit settings, and the spike state the worker keeps. */
@Injectable()
export class RateLimitsRepository {
  /**
   * Counts an envelope against its key's and its organization's current windows, in one statement;
   * answers the windows' totals. Each side's ended windows go in the same statement, so a key or an
   * organization keeps one row per category however long it sends. Rows are taken key first, then
   * organization, each in category order, so two requests never wait on each other crosswise.
   */
  async count(sql: Sql, input: { key: WindowQuantities | null; organization: WindowQuantities | null }, now: Date): Promise<WindowCount[]> {
    const sides = [input.key, input.organization];
    if (sides.every((side) => !side || side.quantities.length === 0)) return [];
    const params = sides.flatMap((side) => {
      const sorted = [...(side?.quantities ?? [])].sort((a, b) => a.category.localeCompare(b.category));
      return [side?.id ?? null, side ? windowStart(now, side.windowSeconds).toISOString() : null, sorted.map((q) => q.category), sorted.map((q) => q.quantity)];
    });
    const rows = await sql.query<{ scope: QuotaScope; category: QuotaCategory; count: number; window_start: Date }>(
      `WITH key_ended AS (DELETE FROM ingest.ingest_rate_windows WHERE key_id = $1 AND window_start < $2),
       key_counted AS (
         INSERT INTO ingest.ingest_rate_windows (key_id, category, window_start, count)
         SELECT $1, category, $2, quantity FROM unnest($3::text[], $4::integer[]) AS q (category, quantity)
         ON CONFLICT (key_id, category, window_start) DO UPDATE SET count = ingest_rate_windows.count + EXCLUDED.count
         RETURNING category, count, window_start),
       organization_ended AS (DELETE FROM ingest.organization_quota_windows WHERE organization_id = $5 AND window_start < $6),
       organization_counted AS (
         INSERT INTO ingest.organization_quota_windows (organization_id, category, window_start, count)
         SELECT $5, category, $6, quantity FROM unnest($7::text[], $8::integer[]) AS q (category, quantity)
         ON CONFLICT (organization_id, category, window_start) DO UPDATE SET count = organization_quota_windows.count + EXCLUDED.count
         RETURNING category, count, window_start)
       SELECT 'key' AS scope, category, count, window_start FROM key_counted
       UNION ALL SELECT 'organization', category, count, window_start FROM organization_counted`,
      params,
    );
    return rows.map((row) => {
      const side = row.scope === 'key' ? input.key : input.organization;
      return {
        scope: row.scope,
        category: row.category,
        count: Number(row.count),
        windowEnds: new Date(new Date(row.window_start).getTime() + (side as WindowQuantities).windowSeconds * 1000),
      };
    });
  }

  async organization(sql: Sql, organizationId: string): Promise<OrganizationRateLimits> {
    const [row] = await sql.query<SettingsRow>(
      `SELECT spike_protection, quotas, spike_threshold, spike_started_at, spike_limited_until FROM ingest.organization_rate_limits WHERE organization_id = $1`,
      [organizationId],
    );
    return row ? limitsOf(row) : DEFAULT_ORGANIZATION_RATE_LIMITS;
  }

  /** Changes an organization's settings (what is given); answers them as they now are. */
  async change(
    sql: Sql,
    organizationId: string,
    change: { spikeProtection?: boolean; quotas?: Partial<Record<QuotaCategory, number | null>> },
    now: Date,
  ): Promise<OrganizationRateLimits> {
    const [row] = await sql.query<SettingsRow>(
      `INSERT INTO ingest.organization_rate_limits AS r (organization_id, spike_protection, quotas, next_evaluation_at)
       VALUES ($1, COALESCE($2, true), jsonb_strip_nulls($3::jsonb), $4)
       ON CONFLICT (organization_id) DO UPDATE SET
         spike_protection = COALESCE($2, r.spike_protection),
         quotas = jsonb_strip_nulls(r.quotas || $3::jsonb),
         -- A change applies at the next round of the spike worker, not an interval later.
         next_evaluation_at = LEAST(r.next_evaluation_at, $4)
       RETURNING spike_protection, quotas, spike_threshold, spike_started_at, spike_limited_until`,
      [organizationId, change.spikeProtection ?? null, JSON.stringify(change.quotas ?? {}), now],
    );
    return limitsOf(row);
  }

  /** Gives every organization that accepted errors since `since` a row for the spike worker to claim. */
  async enrol(sql: Sql, since: Date, now: Date): Promise<void> {
    await sql.execute(
      `INSERT INTO ingest.organization_rate_limits (organization_id, next_evaluation_at)
       SELECT DISTINCT organization_id, $2::timestamptz FROM ingest.organization_error_volume WHERE hour >= $1
       ON CONFLICT (organization_id) DO NOTHING`,
      [since, now],
    );
  }

  /**
   * Claims organizations due for evaluation (FOR UPDATE SKIP LOCKED: worker processes share them,
   * none is evaluated twice at once) with their errors of the baseline hours and of this hour, read
   * in the same statement.
   */
  async claimDue(tx: Transaction, now: Date, hourStart: Date, baselineStart: Date, limit: number): Promise<DueOrganization[]> {
    const rows = await tx.query<SettingsRow & { organization_id: string; baseline: string; current: string }>(
      `WITH due AS MATERIALIZED (
         SELECT * FROM ingest.organization_rate_limits WHERE next_evaluation_at <= $1
         ORDER BY next_evaluation_at, organization_id LIMIT $4 FOR UPDATE SKIP LOCKED)
       SELECT d.organization_id::text, d.spike_protection, d.quotas, d.spike_threshold, d.spike_started_at, d.spike_limited_until,
         COALESCE((SELECT sum(v.count) FROM ingest.organization_error_volume v
                   WHERE v.organization_id = d.organization_id AND v.hour >= $3 AND v.hour < $2), 0) AS baseline,
         COALESCE((SELECT v.count FROM ingest.organization_error_volume v WHERE v.organization_id = d.organization_id AND v.hour = $2), 0) AS current
       FROM due d ORDER BY d.organization_id`,
      [now, hourStart, baselineStart, limit],
    );
    return rows.map((row) => ({
      organizationId: row.organization_id,
      ...limitsOf(row),
      baselineErrors: Number(row.baseline),
      currentHourErrors: Number(row.current),
    }));
  }

  async evaluated(tx: Transaction, organizationId: string, threshold: number, spike: SpikeState, next: Date): Promise<void> {
    await tx.execute(
      `UPDATE ingest.organization_rate_limits SET spike_threshold = $2, spike_started_at = $3, spike_limited_until = $4, next_evaluation_at = $5
       WHERE organization_id = $1`,
      [organizationId, threshold, spike.startedAt, spike.limitedUntil, next],
    );
  }

  async anyDue(sql: Sql, now: Date): Promise<boolean> {
    const [{ due }] = await sql.query<{ due: boolean }>(`SELECT EXISTS (SELECT 1 FROM ingest.organization_rate_limits WHERE next_evaluation_at <= $1) AS due`, [
      now,
    ]);
    return due;
  }

  /** Drops hours older than the baseline needs, a batch at a time. */
  async pruneVolume(sql: Sql, before: Date, batch: number): Promise<number> {
    return sql.execute(
      `DELETE FROM ingest.organization_error_volume WHERE ctid = ANY(ARRAY(SELECT ctid FROM ingest.organization_error_volume WHERE hour < $1 LIMIT $2))`,
      [before, batch],
    );
  }
}
