/** Removes a hook; its pending deliveries fail and its delivery log goes with it. */
export class DeleteServiceHookCommand {
  constructor(
    readonly projectId: string,
    readonly hookId: string,
    readonly actorId: string | null,
  ) {}
}
