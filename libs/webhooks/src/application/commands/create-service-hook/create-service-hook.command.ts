/** Registers a service hook on a project; answers the ServiceHookRow (with its secret). */
export class CreateServiceHookCommand {
  constructor(
    readonly project: { readonly id: string; readonly features: readonly string[] },
    readonly url: string,
    readonly events: readonly string[],
    readonly actorId: string | null,
  ) {}
}
