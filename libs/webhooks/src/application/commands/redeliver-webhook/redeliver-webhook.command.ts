/** Sends a hook's delivery again now, under the same id; answers the delivery's guid. */
export class RedeliverWebhookCommand {
  constructor(
    readonly projectId: string,
    readonly hookId: string,
    readonly deliveryGuid: string,
  ) {}
}
