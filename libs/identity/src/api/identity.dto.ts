import { ApiPropertyOptional, ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';
import { PLANS } from '../domain/roles';

const SLUG = /^(?![0-9]+$)[a-z0-9_-]+$/;
const SLUG_MESSAGE = 'slug must be lowercase letters, numbers, - or _, and not only digits';

export class CreateOrganizationDto {
  @ApiProperty({ maxLength: 64 })
  @IsString()
  @Length(1, 64)
  name: string;

  @ApiPropertyOptional({ maxLength: 50, pattern: SLUG.source })
  @IsOptional()
  @IsString()
  @Length(1, 50)
  @Matches(SLUG, { message: SLUG_MESSAGE })
  slug?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  agreeTerms?: boolean;
}

export class UpdateOrganizationDto {
  @ApiPropertyOptional({ maxLength: 64 })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  name?: string;

  @ApiPropertyOptional({ maxLength: 50, pattern: SLUG.source })
  @IsOptional()
  @IsString()
  @Length(1, 50)
  @Matches(SLUG, { message: SLUG_MESSAGE })
  slug?: string;

  @ApiPropertyOptional({ enum: PLANS, description: 'Instance administrators only.' })
  @IsOptional()
  @IsIn(PLANS)
  plan?: string;

  @ApiPropertyOptional({ type: [String], description: 'Feature flags; instance administrators only.' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  features?: string[];
}

export class CreateTeamDto {
  @ApiPropertyOptional({ maxLength: 64 })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  name?: string;

  @ApiPropertyOptional({ maxLength: 50, pattern: SLUG.source })
  @IsOptional()
  @IsString()
  @Length(1, 50)
  @Matches(SLUG, { message: SLUG_MESSAGE })
  slug?: string;
}

export class CreateApiTokenDto {
  @ApiProperty({ type: [String], example: ['project:read', 'event:read'] })
  @IsArray()
  @ArrayMaxSize(32)
  @IsString({ each: true })
  scopes: string[];

  @ApiPropertyOptional({ maxLength: 255 })
  @IsOptional()
  @IsString()
  @Length(0, 255)
  name?: string;
}

export class CreateOrgTokenDto {
  @ApiProperty({ maxLength: 255 })
  @IsString()
  @Length(1, 255)
  name: string;

  @ApiProperty({ type: [String], example: ['project:read', 'event:read'] })
  @IsArray()
  @ArrayMaxSize(32)
  @IsString({ each: true })
  scopes: string[];
}

export class RevokeApiTokenDto {
  @ApiPropertyOptional()
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'number' ? String(value) : value))
  @IsString()
  @Matches(/^\d+$/, { message: 'tokenId must be a numeric id' })
  tokenId?: string;
}
