export class CreateProjectCommand {
  constructor(
    readonly organizationId: string,
    readonly teamIdOrSlug: string,
    readonly name: string,
    readonly slug: string | undefined,
    readonly platform: string | null,
  ) {}
}
