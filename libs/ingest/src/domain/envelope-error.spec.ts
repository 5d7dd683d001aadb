import { DomainError } from '@faultline/kernel';
import { EnvelopeError } from './envelope-error';

describe('EnvelopeError', () => {
  it('is an invalid DomainError that carries its reason', () => {
    const error = new EnvelopeError('envelope is empty');
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe('invalid');
    expect(error.name).toBe('EnvelopeError');
    expect(error.message).toBe('envelope is empty');
    expect(error.reason).toBe('malformed');
    expect(error.details).toEqual({ reason: 'malformed' });
  });

  it('keeps a given reason', () => {
    expect(new EnvelopeError('too big', 'too_large').reason).toBe('too_large');
    expect(new EnvelopeError('zstd', 'unsupported_encoding').details).toEqual({ reason: 'unsupported_encoding' });
  });
});
