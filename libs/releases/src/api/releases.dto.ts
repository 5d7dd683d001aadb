import { IfPresent } from '@faultline/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsISO8601, IsObject, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';

const MAX_COMMITS = 1000;

/** A release's fields that can be set on creation and changed later, as Sentry names them. */
class ReleaseFieldsDto {
  @ApiPropertyOptional({ type: 'string', nullable: true, description: 'a commit or tag the release was built from' })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString()
  @MaxLength(1024)
  ref?: string | null;

  @ApiPropertyOptional({ type: 'string', nullable: true })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString()
  @MaxLength(2048)
  url?: string | null;

  @ApiPropertyOptional({ type: 'string', nullable: true, format: 'date-time' })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsISO8601({ strict: true })
  dateStarted?: string | null;

  @ApiPropertyOptional({ type: 'string', nullable: true, format: 'date-time', description: 'set when the release is finalized' })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsISO8601({ strict: true })
  dateReleased?: string | null;

  @ApiPropertyOptional({ description: "the release's commits, newest first: `{id, repository?, message?, author_name?, author_email?, timestamp?}`" })
  @IfPresent()
  @IsArray()
  @ArrayMaxSize(MAX_COMMITS)
  @IsObject({ each: true })
  commits?: Array<Record<string, unknown>>;

  @ApiPropertyOptional({ description: 'head commits per repository: `{repository, commit, previousCommit?}`' })
  @IfPresent()
  @IsArray()
  @ArrayMaxSize(MAX_COMMITS)
  @IsObject({ each: true })
  refs?: Array<Record<string, unknown>>;
}

export class CreateReleaseDto extends ReleaseFieldsDto {
  @ApiProperty({ maxLength: 200 })
  @IsString()
  @MaxLength(200)
  version!: string;

  @ApiPropertyOptional({ type: [String], description: 'project slugs or ids (required on the organization path)' })
  @IfPresent()
  @IsArray()
  @ArrayMaxSize(1000)
  projects?: Array<string | number>;
}

export class UpdateReleaseDto extends ReleaseFieldsDto {
  @ApiPropertyOptional({ enum: ['open', 'archived'] })
  @IfPresent()
  @IsIn(['open', 'archived'])
  status?: 'open' | 'archived';

  @ApiPropertyOptional({ type: [String], description: 'projects to add to the release' })
  @IfPresent()
  @IsArray()
  @ArrayMaxSize(1000)
  projects?: Array<string | number>;
}

export class CreateDeployDto {
  @ApiProperty({ maxLength: 64 })
  @IsString()
  @MaxLength(64)
  environment!: string;

  @ApiPropertyOptional({ type: 'string', nullable: true })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString()
  @MaxLength(64)
  name?: string | null;

  @ApiPropertyOptional({ type: 'string', nullable: true })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString()
  @MaxLength(2048)
  url?: string | null;

  @ApiPropertyOptional({ type: 'string', nullable: true, format: 'date-time' })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsISO8601({ strict: true })
  dateStarted?: string | null;

  @ApiPropertyOptional({ type: 'string', nullable: true, format: 'date-time' })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsISO8601({ strict: true })
  dateFinished?: string | null;

  @ApiPropertyOptional({ type: [String], description: "the projects deployed (all of the release's when left out)" })
  @IfPresent()
  @IsArray()
  @ArrayMaxSize(1000)
  projects?: Array<string | number>;
}

export class AssembleArtifactBundleDto {
  @ApiProperty({ description: 'SHA-1 of the whole bundle (hex)' })
  @IsString()
  @MaxLength(40)
  checksum!: string;

  @ApiProperty({ type: [String], description: 'SHA-1 of each chunk, in order' })
  @IsArray()
  @ArrayMaxSize(10_000)
  @IsString({ each: true })
  chunks!: string[];

  @ApiProperty({ type: [String] })
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  projects!: string[];

  @ApiPropertyOptional()
  @IfPresent()
  @IsString()
  @MaxLength(200)
  version?: string;

  @ApiPropertyOptional()
  @IfPresent()
  @IsString()
  @MaxLength(64)
  dist?: string;
}

export class AssembleReleaseFilesDto {
  @ApiProperty({ description: 'SHA-1 of the whole release archive (hex)' })
  @IsString()
  @MaxLength(40)
  checksum!: string;

  @ApiProperty({ type: [String], description: 'SHA-1 of each chunk, in order' })
  @IsArray()
  @ArrayMaxSize(10_000)
  @IsString({ each: true })
  chunks!: string[];
}

export class CreateRepositoryDto {
  @ApiProperty({ maxLength: 200, description: 'as commits name it, e.g. `acme/shop`' })
  @IsString()
  @MaxLength(200)
  name!: string;

  @ApiPropertyOptional({ type: 'string', nullable: true })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString()
  @MaxLength(2048)
  url?: string | null;

  @ApiPropertyOptional({ type: 'string', nullable: true, description: 'e.g. `integrations:github`; informational' })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString()
  @MaxLength(64)
  provider?: string | null;
}
