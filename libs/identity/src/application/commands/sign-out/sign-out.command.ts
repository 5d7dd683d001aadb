export class SignOutCommand {
  constructor(readonly sessionId: string) {}
}
