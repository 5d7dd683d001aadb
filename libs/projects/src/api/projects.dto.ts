import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Length, Max, Min, ValidateIf, ValidateNested } from 'class-validator';
import { NameField, OptionalSlugField } from '@faultline/platform';
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
  @IsOptional()
  @IsBoolean()
  default_rules?: boolean;
}

export class UpdateProjectDto {
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
  @IsOptional()
  @IsBoolean()
  isBookmarked?: boolean;

  @ApiPropertyOptional({ type: [String], description: 'Project features (for example servicehooks); organization owners only.' })
  @IsOptional()
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
  @IsOptional()
  @ValidateNested()
  @Type(() => RateLimitDto)
  rateLimit?: RateLimitDto;

  @ApiPropertyOptional({ enum: ['user'] })
  @IsOptional()
  @IsIn(['user'])
  useCase?: string;
}

export class DynamicSdkLoaderOptionsDto {
  @ApiPropertyOptional() @IsOptional() @IsBoolean() hasReplay?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() hasPerformance?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() hasDebug?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() hasFeedback?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() hasLogsAndMetrics?: boolean;
}

/** Sentry's key update: absent fields stay as they are. */
export class UpdateProjectKeyDto {
  @NameField(64, { optional: true })
  name?: string;

  @ApiPropertyOptional({ description: 'false disables the key: SDKs using it get 403.' })
  @IsOptional()
  @IsBoolean()
  isActive?: boolean;

  @ApiPropertyOptional({ type: RateLimitDto, nullable: true, description: 'null removes the rate limit.' })
  @ValidateIf((_, value) => value !== undefined && value !== null)
  @ValidateNested()
  @Type(() => RateLimitDto)
  rateLimit?: RateLimitDto | null;

  @ApiPropertyOptional({ enum: BROWSER_SDK_VERSIONS })
  @IsOptional()
  @IsIn(BROWSER_SDK_VERSIONS)
  browserSdkVersion?: string;

  @ApiPropertyOptional({ type: DynamicSdkLoaderOptionsDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => DynamicSdkLoaderOptionsDto)
  dynamicSdkLoaderOptions?: DynamicSdkLoaderOptionsDto;
}
