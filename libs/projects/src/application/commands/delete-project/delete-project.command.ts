export class DeleteProjectCommand {
  constructor(
    readonly organizationId: string,
    readonly projectId: string,
  ) {}
}
