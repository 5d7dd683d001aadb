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

const saml = (body: { provider?: string }) => body.provider !== 'oidc';
/** SAML's three fields are required unless its metadata brings them. */
const samlWithoutMetadata = (body: { provider?: string; metadataUrl?: string; metadataXml?: string }) =>
  saml(body) && body.metadataUrl === undefined && body.metadataXml === undefined;

/** OpenID Connect's settings; on a change each may be left out to keep it. */
class OidcOptionsDto extends SsoOptionsDto {
  @ApiPropertyOptional({ description: 'OpenID Connect: the issuer URL, discovered at `{issuer}/.well-known/openid-configuration`' })
  @IfPresent()
  @IsUrl(URL_OPTIONS)
  @MaxLength(2048)
  issuer?: string;

  @ApiPropertyOptional({ description: 'OpenID Connect: the client id the identity provider issued', maxLength: 512 })
  @IfPresent()
  @IsString()
  @Length(1, 512)
  clientId?: string;

  @ApiPropertyOptional({ description: 'OpenID Connect: the client secret; write-only, never answered', maxLength: 1024 })
  @IfPresent()
  @IsString()
  @Length(1, 1024)
  clientSecret?: string;

  @ApiPropertyOptional({ description: 'OpenID Connect: space-separated scopes (default `openid email profile`; `openid` is always asked)', maxLength: 1024 })
  @IfPresent()
  @IsString()
  @Length(1, 1024)
  scopes?: string;
}

export class CreateAuthProviderDto extends OidcOptionsDto {
  @ApiProperty({ enum: ['saml2', 'oidc'] })
  @IsIn(['saml2', 'oidc'])
  provider: 'saml2' | 'oidc';

  @ApiPropertyOptional({ description: "SAML: the identity provider's metadata URL, instead of idpEntityId, ssoUrl and x509cert" })
  @IfPresent()
  @IsUrl(URL_OPTIONS)
  @MaxLength(2048)
  metadataUrl?: string;

  @ApiPropertyOptional({ description: "SAML: the identity provider's metadata document, instead of idpEntityId, ssoUrl and x509cert" })
  @IfPresent()
  @IsString()
  @Length(1, SAML_METADATA_LIMITS.maxChars)
  metadataXml?: string;

  @ApiProperty({ description: "SAML: the identity provider's entity id (issuer)", maxLength: 1024 })
  @ValidateIf(samlWithoutMetadata)
  @IsString()
  @Length(1, 1024)
  idpEntityId?: string;

  @ApiProperty({ description: "SAML: the identity provider's single sign-on URL" })
  @ValidateIf(samlWithoutMetadata)
  @IsUrl(URL_OPTIONS)
  @MaxLength(2048)
  ssoUrl?: string;

  @ApiProperty({ description: "SAML: the identity provider's signing certificate, PEM or base64 DER" })
  @ValidateIf(samlWithoutMetadata)
  @IsString()
  @Length(1, 20_000)
  x509cert?: string;

  @ApiPropertyOptional({ description: 'Turns SCIM provisioning on: the answer then carries the SCIM token, once' })
  @IfPresent()
  @IsBoolean()
  scimEnabled?: boolean;
}

export class UpdateAuthProviderDto extends OidcOptionsDto {
  @ApiPropertyOptional({ enum: ['saml2', 'oidc'], description: "Switching needs the other protocol's settings" })
  @IfPresent()
  @IsIn(['saml2', 'oidc'])
  provider?: 'saml2' | 'oidc';

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
