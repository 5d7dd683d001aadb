/** A signed-in browser session asks to enrol a security key: the options for `navigator.credentials.create`. */
export class StartSecurityKeyEnrolmentCommand {
  constructor(
    readonly userId: string,
    readonly sessionId: string,
  ) {}
}
