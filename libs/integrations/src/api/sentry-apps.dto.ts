import { IfPresent } from '@faultline/platform';
import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsObject, IsOptional, IsString, IsUrl, Length, MaxLength, ValidateIf } from 'class-validator';

const URL_OPTIONS = { require_tld: false, require_protocol: true, protocols: ['http', 'https'] };

export class CreateSentryAppDto {
  @ApiProperty({ maxLength: 64 })
  @IsString()
  @Length(1, 64)
  name!: string;

  @ApiProperty({ description: 'Slug of the owning organization' })
  @IsString()
  @Length(1, 50)
  organization!: string;

  @ApiPropertyOptional({ description: 'An internal integration: installed on its organization only, can mint tokens' })
  @IfPresent()
  @IsBoolean()
  isInternal?: boolean;

  @ApiPropertyOptional({ maxLength: 2048 })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsUrl(URL_OPTIONS, { message: 'webhookUrl must be an absolute http(s) URL' })
  @MaxLength(2048)
  webhookUrl?: string | null;

  @ApiPropertyOptional({ maxLength: 2048 })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsUrl(URL_OPTIONS, { message: 'redirectUrl must be an absolute http(s) URL' })
  @MaxLength(2048)
  redirectUrl?: string | null;

  @ApiPropertyOptional({ description: 'Installs stay pending until the app confirms them (default true)' })
  @IfPresent()
  @IsBoolean()
  verifyInstall?: boolean;

  @ApiPropertyOptional({ type: [String] })
  @IfPresent()
  @IsArray()
  @ArrayMaxSize(30)
  @IsString({ each: true })
  scopes?: string[];

  @ApiPropertyOptional({ type: [String], description: 'Webhook resources: issue, error, comment' })
  @IfPresent()
  @IsArray()
  @ArrayMaxSize(10)
  @IsString({ each: true })
  events?: string[];

  @ApiPropertyOptional()
  @IfPresent()
  @IsBoolean()
  isAlertable?: boolean;

  @ApiPropertyOptional({ description: 'UI components: {"elements": [{"type": "issue-link", ...}]}' })
  @IfPresent()
  @IsObject()
  schema?: Record<string, unknown>;

  @ApiPropertyOptional({ type: [String] })
  @IfPresent()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  allowedOrigins?: string[];

  @ApiPropertyOptional({ type: [String], description: 'Headers sent with every webhook request, each "Name: value"' })
  @IfPresent()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MaxLength(1024, { each: true })
  webhookHeaders?: string[];

  @ApiPropertyOptional({ maxLength: 4096 })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString()
  @MaxLength(4096)
  overview?: string | null;

  @ApiPropertyOptional({ maxLength: 256 })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString()
  @MaxLength(256)
  author?: string | null;
}

/** The create body without its owner, every field optional (null only where the create body allows it); `status` approves a publication request. */
export class UpdateSentryAppDto extends PartialType(OmitType(CreateSentryAppDto, ['organization'] as const), { skipNullProperties: false }) {
  @ApiPropertyOptional({ enum: ['published'], description: 'Approves a publication request (instance administrators)' })
  @IfPresent()
  @IsIn(['published'])
  status?: string;
}

export class InstallSentryAppDto {
  @ApiProperty({ description: 'Slug of the app to install' })
  @IsString()
  @Length(1, 64)
  slug!: string;
}

export class UpdateInstallationDto {
  @ApiProperty({ enum: ['installed'] })
  @IsIn(['installed'], { message: 'status must be installed' })
  status!: string;
}
