import { IfPresent } from '@faultline/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsString, IsUrl, Length, MaxLength } from 'class-validator';

const URL_OPTIONS = { protocols: ['http', 'https'], require_protocol: true, require_tld: false };

export class CreateAuthProviderDto {
  @ApiProperty({ enum: ['saml2'] })
  @IsIn(['saml2'])
  provider: 'saml2';

  @ApiProperty({ description: "The identity provider's entity id (issuer)", maxLength: 1024 })
  @IsString()
  @Length(1, 1024)
  idpEntityId: string;

  @ApiProperty({ description: "The identity provider's single sign-on URL" })
  @IsUrl(URL_OPTIONS)
  @MaxLength(2048)
  ssoUrl: string;

  @ApiProperty({ description: "The identity provider's signing certificate, PEM or base64 DER" })
  @IsString()
  @Length(1, 20_000)
  x509cert: string;

  @ApiPropertyOptional({ description: 'Turns SCIM provisioning on: the answer then carries the SCIM token, once' })
  @IfPresent()
  @IsBoolean()
  scimEnabled?: boolean;
}

export class UpdateAuthProviderDto {
  @ApiPropertyOptional({ enum: ['saml2'] })
  @IfPresent()
  @IsIn(['saml2'])
  provider?: 'saml2';

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
