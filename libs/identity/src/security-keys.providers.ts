import { EnrollSecurityKeyHandler } from './application/commands/enroll-security-key/enroll-security-key.handler';
import { RemoveSecurityKeyHandler } from './application/commands/remove-security-key/remove-security-key.handler';
import { RenameSecurityKeyHandler } from './application/commands/rename-security-key/rename-security-key.handler';
import { StartSecurityKeyEnrolmentHandler } from './application/commands/start-security-key-enrolment/start-security-key-enrolment.handler';
import { StartSecurityKeySignInHandler } from './application/commands/start-security-key-sign-in/start-security-key-sign-in.handler';
import { SecurityKeysRepository } from './infrastructure/security-keys.repository';

/** Security keys (WebAuthn) as a second factor. */
export const SECURITY_KEY_PROVIDERS = [
  SecurityKeysRepository,
  StartSecurityKeyEnrolmentHandler,
  EnrollSecurityKeyHandler,
  RenameSecurityKeyHandler,
  RemoveSecurityKeyHandler,
  StartSecurityKeySignInHandler,
];
