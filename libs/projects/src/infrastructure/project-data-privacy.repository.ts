import { Injectable } from '@nestjs/common';
import { type DataPrivacySettings, effectiveDataPrivacy } from '@faultline/kernel';
import type { Sql } from '@faultline/platform';
import { ProjectDataPrivacy } from '../contracts/project-data-privacy';
import { ProjectsRepository } from './projects.repository';

@Injectable()
export class ProjectDataPrivacyRepository extends ProjectDataPrivacy {
  constructor(private readonly projects: ProjectsRepository) {
    super();
  }

  async effective(sql: Sql, projectId: string): Promise<DataPrivacySettings | undefined> {
    const found = await this.projects.dataPrivacy(sql, projectId);
    return found && effectiveDataPrivacy(found.organization, found.project);
  }
}
