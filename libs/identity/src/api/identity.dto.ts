import { ApiPropertyOptional, ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsString, Length, Matches } from 'class-validator';
import { PLANS } from '../domain/roles';
import { NameField, OptionalSlugField, IfPresent } from '@faultline/platform';

export class CreateOrganizationDto {
  @NameField(64)
  name: string;

  @OptionalSlugField()
  slug?: string;

  @ApiPropertyOptional()
  @IfPresent()
  @IsBoolean()
  agreeTerms?: boolean;
}

export class UpdateOrganizationDto {
  @NameField(64, { optional: true })
  name?: string;

  @OptionalSlugField()
  slug?: string;

  @ApiPropertyOptional({ enum: PLANS, description: 'Instance administrators only.' })
  @IfPresent()
  @IsIn(PLANS)
  plan?: string;

  @ApiPropertyOptional({ type: [String], description: 'Feature flags; instance administrators only.' })
  @IfPresent()
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
  @IfPresent()
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
  @IfPresent()
  @Transform(({ value }) => (typeof value === 'number' ? String(value) : value))
  @IsString()
  @Matches(/^\d+$/, { message: 'tokenId must be a numeric id' })
  tokenId?: string;
}
