import { DomainError } from '@faultline/kernel';

/**
 * A change was made on condition that the member or team is still at a version (an ETag the
 * client sent with If-Match), and it no longer is. Unlike ConcurrencyError, running the unit again
 * cannot help: the client has to read the current state first.
 */
export class VersionMismatchError extends DomainError {
  constructor(readonly currentVersion: number) {
    super('conflict', 'The resource was changed since the version given in If-Match.', { currentVersion });
    this.name = 'VersionMismatchError';
  }
}
