import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, Min, ValidateNested } from 'class-validator';

const SLUG = /^(?![0-9]+$)[a-z0-9_-]+$/;
const SLUG_MESSAGE = 'slug must be lowercase letters, numbers, - or _, and not only digits';

export class CreateProjectDto {
  @ApiProperty({ maxLength: 50 })
  @IsString()
  @Length(1, 50)
  name: string;

  @ApiPropertyOptional({ maxLength: 50, pattern: SLUG.source })
  @IsOptional()
  @IsString()
  @Length(1, 50)
  @Matches(SLUG, { message: SLUG_MESSAGE })
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
  @ApiPropertyOptional({ maxLength: 50 })
  @IsOptional()
  @IsString()
  @Length(1, 50)
  name?: string;

  @ApiPropertyOptional({ maxLength: 50, pattern: SLUG.source })
  @IsOptional()
  @IsString()
  @Length(1, 50)
  @Matches(SLUG, { message: SLUG_MESSAGE })
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
  @ApiPropertyOptional({ maxLength: 64 })
  @IsOptional()
  @IsString()
  @Length(1, 64)
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
