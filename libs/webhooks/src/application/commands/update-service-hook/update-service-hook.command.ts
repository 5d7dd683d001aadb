/** Changes a hook's url, events or status (partially); answers the ServiceHookRow. */
export class UpdateServiceHookCommand {
  constructor(
    readonly projectId: string,
    readonly hookId: string,
    readonly changes: { readonly url?: string; readonly events?: readonly string[]; readonly isActive?: boolean },
    readonly actorId: string | null,
  ) {}
}
