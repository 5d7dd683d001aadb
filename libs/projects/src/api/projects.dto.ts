import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsObject, IsOptional, IsString, Length, Max, Min, ValidateIf, ValidateNested } from 'class-validator';
import { DataPrivacyChangesDto, NameField, OptionalSlugField, IfPresent } from '@faultline/platform';
import { BROWSER_SDK_VERSIONS } from '../domain/project-key';

export class CreateProjectDto {
  @NameField(50)
  name: string;

  @OptionalSlugField()
  slug?: string;

  @ApiPropertyOptional({ nullable: true })
  @IsOptional()
  @IsString()
  @Length(0, 64)
  platform?: string | null;

  @ApiPropertyOptional({ description: 'Accepted for compatibility; Faultline creates no default alert rules yet.' })
  @IfPresent()
  @IsBoolean()
  default_rules?: boolean;
}

export class UpdateProjectDto extends DataPrivacyChangesDto {
  @NameField(50, { optional: true })
  name?: string;

  @OptionalSlugField()
  slug?: string;

  @ApiPropertyOptional({ nullable: true })
  @IsOptional()
  @IsString()
  @Length(0, 64)
  platform?: string | null;

  @ApiPropertyOptional()
  @IfPresent()
  @IsBoolean()
  isBookmarked?: boolean;

  @ApiPropertyOptional({ type: [String], description: 'Project features (for example servicehooks); organization owners only.' })
  @IfPresent()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  features?: string[];
}

export class RateLimitDto {
  @ApiProperty()
  @IsInt()
  @Min(0)
  @Max(1_000_000_000)
  count: number;

  @ApiProperty({ description: 'Seconds' })
  @IsInt()
  @Min(1)
  @Max(86_400)
  window: number;
}

export class CreateProjectKeyDto {
  @NameField(64, { optional: true })
  name?: string;

  @ApiPropertyOptional({ type: RateLimitDto })
  @IfPresent()
  @ValidateNested()
  @Type(() => RateLimitDto)
  rateLimit?: RateLimitDto;

  @ApiPropertyOptional({ enum: ['user'] })
  @IfPresent()
  @IsIn(['user'])
  useCase?: string;
}

/** May be absent; when present (null included) it is validated. */
const UnlessAbsent = () => ValidateIf((_, value) => value !== undefined);

/** Sentry clears a rate limit with `null` or with `{count, window}` both null or empty. */
const clearedRateLimit = ({ value }: { value: unknown }) =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  [(value as Record<string, unknown>).count, (value as Record<string, unknown>).window].every((part) => part === null || part === '')
    ? null
    : value;

export class DynamicSdkLoaderOptionsDto {
  @ApiPropertyOptional() @UnlessAbsent() @IsBoolean() hasReplay?: boolean;
  @ApiPropertyOptional() @UnlessAbsent() @IsBoolean() hasPerformance?: boolean;
  @ApiPropertyOptional() @UnlessAbsent() @IsBoolean() hasDebug?: boolean;
  @ApiPropertyOptional() @UnlessAbsent() @IsBoolean() hasFeedback?: boolean;
  @ApiPropertyOptional() @UnlessAbsent() @IsBoolean() hasLogsAndMetrics?: boolean;
}

/** Sentry's key update: absent fields stay as they are. */
export class UpdateProjectKeyDto {
  @ApiPropertyOptional({ maxLength: 64 })
  @UnlessAbsent()
  @IsString()
  @Length(1, 64)
  name?: string;

  @ApiPropertyOptional({ description: 'false disables the key: SDKs using it get 403.' })
  @UnlessAbsent()
  @IsBoolean()
  isActive?: boolean;

  @ApiPropertyOptional({ type: RateLimitDto, nullable: true, description: 'null (or both parts null) removes the rate limit.' })
  @Transform(clearedRateLimit)
  @ValidateIf((_, value) => value !== undefined && value !== null)
  @IsObject()
  @ValidateNested()
  @Type(() => RateLimitDto)
  rateLimit?: RateLimitDto | null;

  @ApiPropertyOptional({ enum: BROWSER_SDK_VERSIONS })
  @UnlessAbsent()
  @IsIn(BROWSER_SDK_VERSIONS)
  browserSdkVersion?: string;

  @ApiPropertyOptional({ type: DynamicSdkLoaderOptionsDto })
  @UnlessAbsent()
  @IsObject()
  @ValidateNested()
  @Type(() => DynamicSdkLoaderOptionsDto)
  dynamicSdkLoaderOptions?: DynamicSdkLoaderOptionsDto;
}

/** Sentry's project transfer body: an owner of the organization that should receive the project. */
export class TransferProjectDto {
  @ApiProperty({ description: 'The email address of an owner of the receiving organization', maxLength: 320 })
  @IsString()
  @Length(3, 320)
  email!: string;
}

/** Sentry's accept-transfer body: the link's data and the organization that takes the project. */
export class AcceptProjectTransferDto {
  @ApiProperty({ description: "The transfer link's data", maxLength: 200 })
  @IsString()
  @Length(1, 200)
  data!: string;

  @ApiProperty({ description: 'The slug of an organization the signed-in user owns', maxLength: 50 })
  @IsString()
  @Length(1, 50)
  organization!: string;
}
