import type { OwnershipUpdate } from '../../../domain/project-ownership';

export class UpdateProjectOwnershipCommand {
  constructor(
    readonly organizationId: string,
    readonly projectId: string,
    readonly update: OwnershipUpdate,
  ) {}
}
