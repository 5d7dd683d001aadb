/** Deletes a monitor with its environments and check-ins (their streams stay in the event store). */
export class DeleteMonitorCommand {
  constructor(
    readonly organizationId: string,
    readonly monitorSlugOrId: string,
  ) {}
}
