import { DomainError } from '@faultline/kernel';

/**
 * Why a payload was refused. The code is always `invalid` (one filter maps it to 400); the reason
 * lets the ingest endpoint answer like Sentry where it differs: 413 for `too_large`, 415 for
 * `unsupported_encoding`.
 */
export type EnvelopeErrorReason = 'malformed' | 'too_large' | 'unsupported_encoding';

export class EnvelopeError extends DomainError {
  constructor(
    message: string,
    readonly reason: EnvelopeErrorReason = 'malformed',
  ) {
    super('invalid', message, { reason });
    this.name = 'EnvelopeError';
  }
}
