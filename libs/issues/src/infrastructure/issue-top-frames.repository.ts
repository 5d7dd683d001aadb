import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';
import { IssueTopFrames } from '../contracts/issue-top-frames';
import { RECEIVED_BEFORE_OCCURRED } from './event-time-bounds';

interface FrameRow {
  issue_id: string;
  function: string | null;
  filename: string | null;
  lineno: string | null;
}

@Injectable()
export class IssueTopFramesRepository extends IssueTopFrames {
  /**
   * The latest event of each issue (one index probe each), its thrown exception's (the last of `exceptions`)
   * or its own stack trace's frames, innermost last as SDKs send them.
   */
  async topInAppFrames(sql: Sql, issueIds: readonly string[]): Promise<Map<string, string>> {
    if (issueIds.length === 0) return new Map();
    const rows = await sql.query<FrameRow>(
      `SELECT ids.id::text AS issue_id, frame.value->>'function' AS function, COALESCE(frame.value->>'filename', frame.value->>'module') AS filename, frame.value->>'lineno' AS lineno
       FROM unnest($1::bigint[]) AS ids (id)
       JOIN issues.issues i ON i.id = ids.id
       CROSS JOIN LATERAL (SELECT e.data FROM issues.error_events e WHERE e.issue_id = ids.id AND e.received_at >= i.last_seen - ${RECEIVED_BEFORE_OCCURRED}
                           ORDER BY e.occurred_at DESC, e.id DESC LIMIT 1) latest
       CROSS JOIN LATERAL (
         SELECT f.value FROM json_array_elements(
           CASE WHEN json_typeof(COALESCE(latest.data->'exceptions'->-1->'stacktrace'->'frames', latest.data->'stacktrace'->'frames')) = 'array'
                THEN COALESCE(latest.data->'exceptions'->-1->'stacktrace'->'frames', latest.data->'stacktrace'->'frames') ELSE '[]'::json END
         ) WITH ORDINALITY AS f (value, n)
         WHERE f.value->>'inApp' = 'true' ORDER BY f.n DESC LIMIT 1
       ) frame`,
      [[...new Set(issueIds)]],
    );
    return new Map(rows.map((row) => [row.issue_id, `${row.function || '?'} (${row.filename || '?'}${row.lineno ? `:${row.lineno}` : ''})`]));
  }
}
