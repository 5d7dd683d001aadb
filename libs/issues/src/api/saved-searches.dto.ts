import { IfPresent } from '@faultline/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Equals, IsIn, IsString, MaxLength } from 'class-validator';
import { ISSUE_SORTS } from '../application/queries/issue-search';
import { SAVED_SEARCH_LIMITS, SAVED_SEARCH_VISIBILITIES, type SavedSearchVisibility } from '../domain';

/** Sentry's search types; only issue searches (0) are kept. */
const ISSUE_SEARCH_TYPE = 0;
/** The longest query the issue search takes (its own limit is checked again when saving). */
const MAX_QUERY_LENGTH = 2_000;

export class CreateSavedSearchDto {
  @ApiPropertyOptional({ description: "Sentry's search type: only 0 (issues).", default: 0 })
  @IfPresent()
  @Equals(ISSUE_SEARCH_TYPE, { message: 'type: only issue searches (0) can be saved.' })
  type?: number;

  @ApiProperty({ maxLength: SAVED_SEARCH_LIMITS.nameLength })
  @IsString()
  @MaxLength(SAVED_SEARCH_LIMITS.nameLength)
  name: string;

  @ApiProperty({ maxLength: MAX_QUERY_LENGTH, description: 'A query in the issue search syntax.' })
  @IsString()
  @MaxLength(MAX_QUERY_LENGTH)
  query: string;

  @ApiPropertyOptional({ enum: Object.keys(ISSUE_SORTS), default: 'date' })
  @IfPresent()
  @IsIn(Object.keys(ISSUE_SORTS))
  sort?: string;

  @ApiPropertyOptional({ enum: SAVED_SEARCH_VISIBILITIES, default: 'owner', description: '`organization` needs org:write.' })
  @IfPresent()
  @IsIn([...SAVED_SEARCH_VISIBILITIES])
  visibility?: SavedSearchVisibility;
}

export class UpdateSavedSearchDto {
  @ApiPropertyOptional({ default: 0 })
  @IfPresent()
  @Equals(ISSUE_SEARCH_TYPE, { message: 'type: only issue searches (0) can be saved.' })
  type?: number;

  @ApiPropertyOptional({ maxLength: SAVED_SEARCH_LIMITS.nameLength })
  @IfPresent()
  @IsString()
  @MaxLength(SAVED_SEARCH_LIMITS.nameLength)
  name?: string;

  @ApiPropertyOptional({ maxLength: MAX_QUERY_LENGTH })
  @IfPresent()
  @IsString()
  @MaxLength(MAX_QUERY_LENGTH)
  query?: string;

  @ApiPropertyOptional({ enum: Object.keys(ISSUE_SORTS) })
  @IfPresent()
  @IsIn(Object.keys(ISSUE_SORTS))
  sort?: string;

  @ApiPropertyOptional({ enum: SAVED_SEARCH_VISIBILITIES })
  @IfPresent()
  @IsIn([...SAVED_SEARCH_VISIBILITIES])
  visibility?: SavedSearchVisibility;
}
