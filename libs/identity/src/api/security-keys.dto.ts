import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { SECURITY_KEY_LIMITS } from '../domain/security-keys';
import type { SecurityKeyRow } from '../infrastructure/security-keys.repository';

/** Sentry's u2f enrolment body: the key's answer to `navigator.credentials.create` as a JSON string, and a name for it. */
export class EnrollSecurityKeyDto {
  @ApiPropertyOptional({ maxLength: SECURITY_KEY_LIMITS.nameLength })
  @IsOptional()
  @IsString()
  @MaxLength(SECURITY_KEY_LIMITS.nameLength)
  deviceName?: string;

  /** Sentry echoes the enrolment data here; the challenge that counts is the one the key signed. */
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(SECURITY_KEY_LIMITS.responseBytes)
  challenge?: string;

  @ApiProperty({ description: 'The RegistrationResponseJSON of @simplewebauthn/browser, as a JSON string', maxLength: SECURITY_KEY_LIMITS.responseBytes })
  @IsString()
  @MinLength(2)
  @MaxLength(SECURITY_KEY_LIMITS.responseBytes)
  response!: string;
}

export class RenameSecurityKeyDto {
  @ApiProperty({ maxLength: SECURITY_KEY_LIMITS.nameLength })
  @IsString()
  @MinLength(1)
  @MaxLength(SECURITY_KEY_LIMITS.nameLength)
  name!: string;
}

/** One key as Sentry lists a u2f interface's devices (`key_handle`, `name`, `timestamp`), with when it was last used. */
export const serializeSecurityKey = (key: SecurityKeyRow) => ({
  key_handle: key.credentialId,
  name: key.name,
  timestamp: key.createdAt.toISOString(),
  lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
});

/**
 * A WebAuthn response posted by a browser (a JSON string or object): the shape the verifier
 * needs, or undefined. The verifier checks everything inside.
 */
export function parseCredentialResponse<T>(value: unknown, kind: 'attestationObject' | 'authenticatorData'): T | undefined {
  let parsed = value;
  if (typeof value === 'string') {
    if (value.length > SECURITY_KEY_LIMITS.responseBytes) return undefined;
    try {
      parsed = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const candidate = parsed as { id?: unknown; rawId?: unknown; type?: unknown; response?: Record<string, unknown> };
  const ok =
    typeof candidate.id === 'string' &&
    typeof candidate.rawId === 'string' &&
    candidate.type === 'public-key' &&
    typeof candidate.response === 'object' &&
    candidate.response !== null &&
    typeof candidate.response.clientDataJSON === 'string' &&
    typeof candidate.response[kind] === 'string';
  return ok ? (parsed as T) : undefined;
}
