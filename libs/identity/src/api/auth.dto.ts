import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';

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
