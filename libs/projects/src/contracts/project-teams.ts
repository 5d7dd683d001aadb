import type { Sql } from '@faultline/platform';

/** The teams with access to a project, read by other contexts in their own transaction. */
export abstract class ProjectTeams {
  abstract teamIds(sql: Sql, projectId: string): Promise<string[]>;
}
