import type { Sql } from '@faultline/platform';

/**
 * A restore step for a logical backup loaded into another PostgreSQL cluster: the events carry the
 * transaction ids of the cluster they were written in, which this one's ids have nothing to do
 * with, while readers order the global stream by (transaction_id, global_position) and appends
 * require a predecessor's id not to be newer than their own.
 *
 * Renumbers them with small ids that keep the readers' order exactly (so every checkpoint keeps
 * meaning the same events behind it): walking the events in that order, a run of events whose
 * positions rise shares one id, and a new run (the next id) starts where a position falls. The
 * restore then moves the cluster's transaction ids past the highest, which costs one commit per id:
 * runs are few (a fall needs two transactions whose writes interleaved), where transactions are many.
 * Runs with row triggers off (the table refuses updates otherwise).
 */
export async function renumberRestoredTransactionIds(sql: Sql): Promise<void> {
  await sql.execute(
    `WITH readers_order AS (
       SELECT global_position, transaction_id,
              CASE WHEN global_position < lag(global_position) OVER (ORDER BY transaction_id, global_position) THEN 1 ELSE 0 END AS falls
       FROM event_store.events),
     runs AS (
       SELECT global_position, 1 + sum(falls) OVER (ORDER BY transaction_id, global_position ROWS UNBOUNDED PRECEDING) AS run
       FROM readers_order)
     UPDATE event_store.events e SET transaction_id = runs.run::text::xid8
     FROM runs
     WHERE e.global_position = runs.global_position`,
  );
}
