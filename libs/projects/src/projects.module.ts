import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { EventStoreModule } from '@faultline/event-store';
import { ProjectKeysController } from './api/project-keys.controller';
import { ProjectTransferController } from './api/project-transfer.controller';
import { ProjectsController } from './api/projects.controller';
import { ProjectOwnershipController } from './api/project-ownership.controller';
import { UpdateProjectOwnershipHandler } from './application/commands/update-project-ownership/update-project-ownership.handler';
import { ProjectOwnership } from './contracts/project-ownership';
import { ProjectOwnershipRepository } from './infrastructure/project-ownership.repository';
import { AcceptProjectTransferHandler } from './application/commands/accept-project-transfer/accept-project-transfer.handler';
import { RequestProjectTransferHandler } from './application/commands/request-project-transfer/request-project-transfer.handler';
import { CreateProjectKeyHandler } from './application/commands/create-project-key/create-project-key.handler';
import { DeleteProjectKeyHandler } from './application/commands/delete-project-key/delete-project-key.handler';
import { UpdateProjectKeyHandler } from './application/commands/update-project-key/update-project-key.handler';
import { CreateProjectHandler } from './application/commands/create-project/create-project.handler';
import { DeleteProjectHandler } from './application/commands/delete-project/delete-project.handler';
import { ChangeProjectTeamHandler } from './application/commands/change-project-team/change-project-team.handler';
import { UpdateProjectHandler } from './application/commands/update-project/update-project.handler';
import { FindOrganizationProjectsHandler } from './application/queries/find-organization-projects.handler';
import { FindProjectHandler } from './application/queries/find-project.handler';
import { FindProjectKeyHandler } from './application/queries/find-project-key.handler';
import { FindProjectKeysHandler } from './application/queries/find-project-keys.handler';
import { ProjectDataPrivacy } from './contracts/project-data-privacy';
import { ProjectTeams } from './contracts/project-teams';
import { ProjectTransferNotices } from './contracts/project-transfer-notices';
import { ProjectTransfersRepository } from './infrastructure/project-transfers.repository';
import { ProjectDataPrivacyRepository } from './infrastructure/project-data-privacy.repository';
import { ProjectTeamsRepository } from './infrastructure/project-teams.repository';
import { ProjectDetailStatement } from './contracts/project-detail-statement';
import { projectDetailSql, ProjectsRepository } from './infrastructure/projects.repository';

@Module({
  imports: [CqrsModule, EventStoreModule],
  controllers: [ProjectsController, ProjectKeysController, ProjectOwnershipController, ProjectTransferController],
  providers: [
    ProjectsRepository,
    { provide: ProjectDetailStatement, useValue: { text: projectDetailSql } satisfies ProjectDetailStatement },
    { provide: ProjectTeams, useClass: ProjectTeamsRepository },
    ProjectDataPrivacyRepository,
    { provide: ProjectDataPrivacy, useExisting: ProjectDataPrivacyRepository },
    ProjectOwnershipRepository,
    { provide: ProjectOwnership, useExisting: ProjectOwnershipRepository },
    UpdateProjectOwnershipHandler,
    CreateProjectHandler,
    UpdateProjectHandler,
    DeleteProjectHandler,
    ChangeProjectTeamHandler,
    ProjectTransfersRepository,
    ProjectTransferNotices,
    RequestProjectTransferHandler,
    AcceptProjectTransferHandler,
    CreateProjectKeyHandler,
    UpdateProjectKeyHandler,
    DeleteProjectKeyHandler,
    FindProjectKeysHandler,
    FindProjectKeyHandler,
    FindProjectHandler,
    FindOrganizationProjectsHandler,
  ],
  exports: [ProjectTeams, ProjectDataPrivacy, ProjectOwnership, ProjectTransferNotices],
})
export class ProjectsModule {}
