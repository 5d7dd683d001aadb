/** Registers a repository of the organization, which release commits and heads name. */
export class CreateRepositoryCommand {
  constructor(
    readonly organizationId: string,
    readonly repository: { name: string; url: string | null; provider: string | null },
  ) {}
}
