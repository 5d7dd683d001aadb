export class UpdateOrganizationCommand {
  constructor(
    readonly organizationId: string,
    readonly changes: { name?: string; slug?: string; plan?: string; features?: string[]; attachmentsRole?: string },
    /** Only an instance administrator may change the plan or the feature flags. */
    readonly actorIsSuperuser: boolean,
  ) {}
}
