/** The second step of a sign-in asks to answer with a security key: the options for `navigator.credentials.get`. */
export class StartSecurityKeySignInCommand {
  constructor(readonly challenge: string) {}
}
