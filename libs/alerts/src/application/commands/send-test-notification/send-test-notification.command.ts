/**
 * Sends what a rule's mail and chat actions would send, now, about the project's most recently
 * seen issue, so whoever writes the rule sees the messages arrive (Sentry's "send test notification").
 */
export class SendTestNotificationCommand {
  constructor(
    readonly organizationId: string,
    readonly projectId: string,
    readonly actions: unknown,
  ) {}
}
