import { ApiPropertyOptional, ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';
import { PLANS } from '../domain/roles';
import { NameField, OptionalSlugField } from '@faultline/platform';

export class CreateOrganizationDto {
  @NameField(64)
  name: string;

  @OptionalSlugField()
  slug?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  agreeTerms?: boolean;
}

export class UpdateOrganizationDto {
  @NameField(64, { optional: true })
  name?: string;

  @OptionalSlugField()
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
  @NameField(64, { optional: true })
  name?: string;

  @OptionalSlugField()
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
  @NameField(255)
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
