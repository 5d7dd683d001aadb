import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsOptional, IsString, MaxLength, MinLength, ValidateIf } from 'class-validator';

/** Sentry's sign-in body: `username` is the e-mail address. */
export class SignInDto {
  @ApiProperty({ description: 'The e-mail address', maxLength: 320 })
  @IsString()
  @MinLength(1)
  @MaxLength(320)
  username!: string;

  @ApiProperty({ maxLength: 256 })
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  password!: string;
}

/** The second step of a sign-in: the challenge the first step answered, and a TOTP or recovery code. */
export class TwoFactorSignInDto {
  @ApiProperty({ maxLength: 128 })
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  challenge!: string;

  @ApiPropertyOptional({ description: 'A code of the authenticator app, or a recovery code (or `webauthn` instead)', maxLength: 64 })
  @ValidateIf((body: TwoFactorSignInDto) => body.webauthn === undefined)
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  otp?: string;

  @ApiPropertyOptional({ description: "A security key's answer to the options of `POST auth/2fa/webauthn/` (AuthenticationResponseJSON)" })
  @IsOptional()
  @Allow()
  webauthn?: unknown;
}

/** Sentry's TOTP enrolment: the secret the enrolment page was given, and the app's current code. */
export class SecurityKeySignInDto {
  @ApiProperty({ description: 'The challenge of the sign-in', maxLength: 128 })
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  challenge!: string;
}

export class EnrollTotpDto {
  @ApiProperty({ maxLength: 128 })
  @IsString()
  @MaxLength(128)
  secret!: string;

  @ApiProperty({ maxLength: 64 })
  @IsString()
  @MaxLength(64)
  otp!: string;
}
