import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';
import { ProjectTeams } from '../contracts/project-teams';

@Injectable()
export class ProjectTeamsRepository extends ProjectTeams {
  async teamIds(sql: Sql, projectId: string): Promise<string[]> {
    const rows = await sql.query<{ team_id: string }>(`SELECT team_id::text FROM projects.project_teams WHERE project_id = $1::bigint ORDER BY team_id`, [
      projectId,
    ]);
    return rows.map((row) => row.team_id);
  }
}
