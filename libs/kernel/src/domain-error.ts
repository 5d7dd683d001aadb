/** Stable error codes; one exception filter maps them to HTTP statuses. */
export type DomainErrorCode = 'not_found' | 'conflict' | 'forbidden' | 'invalid' | 'unauthenticated' | 'concurrency';

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }

  static notFound(message = 'The requested resource does not exist'): DomainError {
    return new DomainError('not_found', message);
  }

  static conflict(message: string, details?: Record<string, unknown>): DomainError {
    return new DomainError('conflict', message, details);
  }

  static forbidden(message = 'You do not have permission to perform this action.'): DomainError {
    return new DomainError('forbidden', message);
  }

  static invalid(message: string, details?: Record<string, unknown>): DomainError {
    return new DomainError('invalid', message, details);
  }
}

/** Another writer appended to the stream first: the caller reloads and decides again, or answers 409. */
export class ConcurrencyError extends DomainError {
  constructor(
    readonly streamId: string,
    readonly expectedVersion: number | 'any' | 'no_stream',
  ) {
    super('concurrency', `Stream ${streamId} was changed concurrently (expected version ${expectedVersion}).`);
    this.name = 'ConcurrencyError';
  }
}
