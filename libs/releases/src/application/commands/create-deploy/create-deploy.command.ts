/** Records that a release was deployed to an environment. */
export class CreateDeployCommand {
  constructor(
    readonly organizationId: string,
    readonly version: string,
    readonly deploy: { environment: string; name: string | null; url: string | null; dateStarted: Date | null; dateFinished: Date | null },
    readonly actorId: string | null,
  ) {}
}
