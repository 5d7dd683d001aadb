import type { Sql } from '@faultline/platform';

/** Where an issue's latest event was raised in the application's own code, as messages about it show. */
export abstract class IssueTopFrames {
  /** By issue id: `function (file:line)` of the latest event's innermost in-app frame; issues without one are absent. */
  abstract topInAppFrames(sql: Sql, issueIds: readonly string[]): Promise<Map<string, string>>;
}
