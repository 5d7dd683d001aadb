import { ApiPropertyOptional, ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsString, Length, Matches } from 'class-validator';
import { MEMBER_ROLES, PLANS } from '../domain/roles';
import { DataPrivacyChangesDto, NameField, OptionalSlugField, IfPresent } from '@faultline/platform';

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

export class UpdateOrganizationDto extends DataPrivacyChangesDto {
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

  @ApiPropertyOptional({ description: 'Members must sign in with a second factor; takes one of your own.' })
  @IfPresent()
  @IsBoolean()
  require2FA?: boolean;

  @ApiPropertyOptional({ enum: MEMBER_ROLES, description: "Sentry's attachmentsRole: the lowest role that may download event attachments." })
  @IfPresent()
  @IsIn(MEMBER_ROLES, { message: 'attachmentsRole: Invalid role' })
  attachmentsRole?: string;
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

/** Sentry's invite body; the role and teams are checked by the command. */
export class InviteMemberDto {
  @ApiProperty({ maxLength: 320 })
  @IsString()
  @Length(3, 320)
  email!: string;

  @ApiPropertyOptional({ description: 'billing, member, admin, manager or owner (default member)' })
  @IfPresent()
  @IsString()
  orgRole?: string;

  @ApiPropertyOptional({ deprecated: true, description: 'The older name of orgRole' })
  @IfPresent()
  @IsString()
  role?: string;

  @ApiPropertyOptional({ type: [String], description: 'Team slugs' })
  @IfPresent()
  @IsArray()
  @ArrayMaxSize(100)
  teams?: string[];

  @ApiPropertyOptional({ description: 'Always true here: the invitation is mailed' })
  @IfPresent()
  @IsBoolean()
  sendInvite?: boolean;
}

export class UpdatePendingMemberDto {
  @ApiPropertyOptional()
  @IfPresent()
  @IsBoolean()
  reinvite?: boolean;

  @ApiPropertyOptional({ description: 'Sentry sends it with reinvite; a reinvite always makes a new link' })
  @IfPresent()
  @IsBoolean()
  regenerate?: boolean;

  @ApiPropertyOptional({ description: "A member's new organization role (Sentry's orgRole)", enum: MEMBER_ROLES })
  @IfPresent()
  @IsIn(MEMBER_ROLES, { message: `orgRole: must be one of ${MEMBER_ROLES.join(', ')}` })
  orgRole?: string;

  @ApiPropertyOptional({ description: 'The older name of orgRole', enum: MEMBER_ROLES })
  @IfPresent()
  @IsIn(MEMBER_ROLES, { message: `role: must be one of ${MEMBER_ROLES.join(', ')}` })
  role?: string;
}
