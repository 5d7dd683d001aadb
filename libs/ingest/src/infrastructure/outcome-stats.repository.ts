import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';
import type { DataCategory, Outcome, OutcomesQuery, OutcomeTotalsRow } from '../domain';

/** The columns a grouping reads, by name (never from the request). */
const GROUP_COLUMNS = { outcome: 'outcome', category: 'category', project: 'project_id', reason: 'reason' } as const;

/** Reads the outcome rollup (`ingest.outcome_stats`) that the event processor keeps. */
@Injectable()
export class OutcomeStatsRepository {
  /**
   * The query's sums per interval and grouped values, over the given projects of the organization.
   * Grouped by project, the sums are over the whole range (Sentry answers no series then).
   */
  async totals(sql: Sql, organizationId: string, projectIds: readonly string[], query: OutcomesQuery): Promise<OutcomeTotalsRow[]> {
    const grouped = query.groupBy.map((key) => GROUP_COLUMNS[key]);
    const perInterval = !query.groupBy.includes('project');
    const select = (column: string, otherwise: string) => (grouped.includes(column as (typeof grouped)[number]) ? column : `${otherwise} AS ${column}`);
    const rows = await sql.query<{
      interval: number;
      outcome: Outcome | null;
      category: DataCategory | null;
      project_id: string;
      reason: string;
      quantity: string;
      times_seen: string;
    }>(
      `SELECT ${perInterval ? 'floor((extract(epoch FROM bucket) - $3::bigint) / $5::integer)::int' : '0 * $5::integer'} AS interval,
         ${select('outcome', 'NULL::text')}, ${select('category', 'NULL::text')}, ${select('project_id', '0::bigint')}, ${select('reason', "''")},
         sum(quantity)::text AS quantity, sum(times_seen)::text AS times_seen
       FROM ingest.outcome_stats
       WHERE organization_id = $1 AND resolution = $2 AND bucket >= to_timestamp($3::bigint) AND bucket < to_timestamp($4::bigint)
         AND project_id = ANY($6::bigint[])
         AND (cardinality($7::text[]) = 0 OR category = ANY($7::text[]))
         AND (cardinality($8::text[]) = 0 OR outcome = ANY($8::text[]))
         AND (cardinality($9::text[]) = 0 OR reason = ANY($9::text[]))
       GROUP BY 1${grouped.map((column) => `, ${column}`).join('')}`,
      [
        organizationId,
        query.resolution,
        query.start,
        query.end,
        query.intervalSeconds,
        [...projectIds],
        [...query.categories],
        [...query.outcomes],
        [...query.reasons],
      ],
    );
    return rows.map((row) => ({
      interval: row.interval,
      outcome: row.outcome as Outcome,
      category: row.category as DataCategory,
      projectId: String(row.project_id),
      reason: row.reason === '' ? null : row.reason,
      quantity: Number(row.quantity),
      timesSeen: Number(row.times_seen),
    }));
  }
}
