import { IfPresent } from '@faultline/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsString, IsUrl, Length, MaxLength, ValidateIf, ValidateNested } from 'class-validator';
import { SAML_METADATA_LIMITS } from '../domain/saml-metadata';
import { SSO_DEFAULT_ROLES } from '../domain/auth-provider';

const URL_OPTIONS = { protocols: ['http', 'https'], require_protocol: true, require_tld: false };

/** Which SAML attribute carries each field; a field left out keeps Okta's name (`user.id`, `user.email`, `user.first_name`, `user.last_name`). */
export class AttributeMappingDto {
  @ApiPropertyOptional({ example: 'user.id' })
  @IfPresent()
  @IsString()
  @Length(1, 256)
  identifier?: string;

  @ApiPropertyOptional({ example: 'user.email' })
  @IfPresent()
  @IsString()
  @Length(1, 256)
  email?: string;

  @ApiPropertyOptional({ example: 'user.first_name' })
  @IfPresent()
  @IsString()
  @Length(1, 256)
  firstName?: string;

  @ApiPropertyOptional({ example: 'user.last_name' })
  @IfPresent()
  @IsString()
  @Length(1, 256)
  lastName?: string;
}

/** What a new and a changed provider share: how its users' attributes are read, and the role of a member who joins by signing in. */
class SsoOptionsDto {
  @ApiPropertyOptional({ description: 'SAML attribute names; `attributeMappingPreset` fills them for Okta or Entra', type: AttributeMappingDto })
  @IfPresent()
  @ValidateNested()
  @Type(() => AttributeMappingDto)
  attributeMapping?: AttributeMappingDto;

  @ApiPropertyOptional({ enum: ['okta', 'entra'], description: "The identity provider's attribute names" })
  @IfPresent()
  @IsIn(['okta', 'entra'])
  attributeMappingPreset?: 'okta' | 'entra';

  @ApiPropertyOptional({ enum: SSO_DEFAULT_ROLES, description: 'The role of a member who joins by signing in (default member)' })
  @IfPresent()
  @IsIn(SSO_DEFAULT_ROLES)
  defaultRole?: (typeof SSO_DEFAULT_ROLES)[number];
}

/** The three fields are required unless the metadata brings them. */
const withoutMetadata = (body: { metadataUrl?: string; metadataXml?: string }) => body.metadataUrl === undefined && body.metadataXml === undefined;

export class CreateAuthProviderDto extends SsoOptionsDto {
  @ApiProperty({ enum: ['saml2'] })
  @IsIn(['saml2'])
  provider: 'saml2';

  @ApiPropertyOptional({ description: "The identity provider's metadata URL, instead of idpEntityId, ssoUrl and x509cert" })
  @IfPresent()
  @IsUrl(URL_OPTIONS)
  @MaxLength(2048)
  metadataUrl?: string;

  @ApiPropertyOptional({ description: "The identity provider's metadata document, instead of idpEntityId, ssoUrl and x509cert" })
  @IfPresent()
  @IsString()
  @Length(1, SAML_METADATA_LIMITS.maxChars)
  metadataXml?: string;

  @ApiProperty({ description: "The identity provider's entity id (issuer)", maxLength: 1024 })
  @ValidateIf(withoutMetadata)
  @IsString()
  @Length(1, 1024)
  idpEntityId?: string;

  @ApiProperty({ description: "The identity provider's single sign-on URL" })
  @ValidateIf(withoutMetadata)
  @IsUrl(URL_OPTIONS)
  @MaxLength(2048)
  ssoUrl?: string;

  @ApiProperty({ description: "The identity provider's signing certificate, PEM or base64 DER" })
  @ValidateIf(withoutMetadata)
  @IsString()
  @Length(1, 20_000)
  x509cert?: string;

  @ApiPropertyOptional({ description: 'Turns SCIM provisioning on: the answer then carries the SCIM token, once' })
  @IfPresent()
  @IsBoolean()
  scimEnabled?: boolean;
}

export class UpdateAuthProviderDto extends SsoOptionsDto {
  @ApiPropertyOptional({ enum: ['saml2'] })
  @IfPresent()
  @IsIn(['saml2'])
  provider?: 'saml2';

  @ApiPropertyOptional({ description: "The identity provider's metadata URL, instead of idpEntityId, ssoUrl and x509cert" })
  @IfPresent()
  @IsUrl(URL_OPTIONS)
  @MaxLength(2048)
  metadataUrl?: string;

  @ApiPropertyOptional({ description: "The identity provider's metadata document, instead of idpEntityId, ssoUrl and x509cert" })
  @IfPresent()
  @IsString()
  @Length(1, SAML_METADATA_LIMITS.maxChars)
  metadataXml?: string;

  @ApiPropertyOptional({ maxLength: 1024 })
  @IfPresent()
  @IsString()
  @Length(1, 1024)
  idpEntityId?: string;

  @ApiPropertyOptional()
  @IfPresent()
  @IsUrl(URL_OPTIONS)
  @MaxLength(2048)
  ssoUrl?: string;

  @ApiPropertyOptional()
  @IfPresent()
  @IsString()
  @Length(1, 20_000)
  x509cert?: string;

  @ApiPropertyOptional({ description: 'true issues a SCIM token (answered once); false revokes it' })
  @IfPresent()
  @IsBoolean()
  scimEnabled?: boolean;
}
