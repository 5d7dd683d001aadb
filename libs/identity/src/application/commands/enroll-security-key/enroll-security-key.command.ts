import type { RegistrationResponseJSON } from '@simplewebauthn/server';

/** Enrols the security key that answered an enrolment this session started. */
export class EnrollSecurityKeyCommand {
  constructor(
    readonly userId: string,
    readonly sessionId: string,
    readonly name: string,
    readonly response: RegistrationResponseJSON,
  ) {}
}
