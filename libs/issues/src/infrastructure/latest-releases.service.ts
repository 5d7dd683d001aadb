import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';
import { LatestReleases } from '../contracts/latest-releases';
import { latestOf, projectReleasesNewestFirst } from './project-releases.repository';

@Injectable()
export class LatestReleasesService extends LatestReleases {
  async ofProjects(sql: Sql, projects: ReadonlyArray<{ projectId: string; seenNow: readonly string[] }>): Promise<Map<string, string>> {
    const stored = await projectReleasesNewestFirst(
      sql,
      projects.map((p) => p.projectId),
    );
    const newestFirst = new Map<string, string[]>();
    for (const { projectId, seenNow } of projects) {
      const known = stored.get(projectId) ?? [];
      const unseen = [...new Set([...seenNow].reverse())].filter((release) => !known.includes(release));
      newestFirst.set(projectId, [...unseen, ...known]);
    }
    return latestOf(newestFirst);
  }
}
