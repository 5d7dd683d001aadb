import { IfPresent } from '@faultline/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsISO8601, IsObject, IsOptional, IsString, Length, Matches, Max, Min, ValidateNested } from 'class-validator';
import { ISSUE_STATUS_CHANGES, type IssueStatusChange } from '../application/commands/update-issue/update-issue.command';

const SUBSTATUSES = ['archived_until_escalating', 'archived_until_condition_met', 'archived_forever', 'escalating', 'ongoing', 'regressed', 'new'];
const ONE_YEAR_MINUTES = 525_600;
/** Sentry's boolean field: true, false, 1, 0 and their strings. */
const MERGE_FLAGS: unknown[] = [true, false, 1, 0, 'true', 'false', '1', '0'];

export class IssueStatusDetailsDto {
  @ApiPropertyOptional({ description: "Resolved in this release version; `latest` is the project's latest release." })
  @IfPresent()
  @IsString()
  @Length(1, 200)
  inRelease?: string;

  @ApiPropertyOptional({ description: "Resolved in the release after the project's latest: events from that release or older ones do not reopen it." })
  @IfPresent()
  @IsBoolean()
  inNextRelease?: boolean;

  @ApiPropertyOptional({ description: 'Not supported: answers 400.' })
  @IfPresent()
  inCommit?: unknown;

  @ApiPropertyOptional({ description: 'Ignore for this many minutes.' })
  @IfPresent()
  @IsInt()
  @Min(1)
  @Max(ONE_YEAR_MINUTES)
  ignoreDuration?: number;

  @ApiPropertyOptional({ description: 'Ignore until this many more events arrive.' })
  @IfPresent()
  @IsInt()
  @Min(1)
  @Max(1_000_000_000)
  ignoreCount?: number;

  @ApiPropertyOptional({ description: 'Ignore until this time (ISO 8601).' })
  @IfPresent()
  @IsISO8601()
  ignoreUntil?: string;

  @ApiPropertyOptional({ description: 'Accepted; the count is applied over the whole ignore.' })
  @IfPresent()
  @IsInt()
  @Min(1)
  @Max(10_080)
  ignoreWindow?: number;

  @ApiPropertyOptional({ description: 'Ignore until this many more users are affected.' })
  @IfPresent()
  @IsInt()
  @Min(1)
  @Max(1_000_000_000)
  ignoreUserCount?: number;

  @ApiPropertyOptional({ description: 'Accepted; the user count is applied over the whole ignore.' })
  @IfPresent()
  @IsInt()
  @Min(1)
  @Max(10_080)
  ignoreUserWindow?: number;
}

/** Sentry's issue update; `isBookmarked` is the caller's bookmark, the other per-user flags (hasSeen, isSubscribed) are accepted and not kept. */
export class UpdateIssueDto {
  @ApiPropertyOptional({ enum: ISSUE_STATUS_CHANGES })
  @IfPresent()
  @IsIn([...ISSUE_STATUS_CHANGES])
  status?: IssueStatusChange;

  @ApiPropertyOptional({ type: IssueStatusDetailsDto })
  @IfPresent()
  @IsObject()
  @ValidateNested()
  @Type(() => IssueStatusDetailsDto)
  statusDetails?: IssueStatusDetailsDto;

  @ApiPropertyOptional({ enum: SUBSTATUSES, nullable: true, description: 'Accepted; the substatus follows from status.' })
  @IsOptional()
  @IsIn(SUBSTATUSES)
  substatus?: string | null;

  @ApiPropertyOptional({ nullable: true, description: '`user:<id>`, `team:<id>`, a user id or a member e-mail; null or "" unassigns.' })
  @IsOptional()
  @IsString()
  @Length(0, 256)
  assignedTo?: string | null;

  @ApiPropertyOptional()
  @IfPresent()
  @IsBoolean()
  hasSeen?: boolean;

  @ApiPropertyOptional({ description: 'Bookmarks (or un-bookmarks) the issues for the calling user; an organization token cannot.' })
  @IfPresent()
  @IsBoolean()
  isBookmarked?: boolean;

  @ApiPropertyOptional()
  @IfPresent()
  @IsBoolean()
  isSubscribed?: boolean;

  @ApiPropertyOptional()
  @IfPresent()
  @IsBoolean()
  inbox?: boolean;

  @ApiPropertyOptional({ description: 'Sharing is not supported: only false is accepted.' })
  @IfPresent()
  @IsBoolean()
  isPublic?: boolean;

  @ApiPropertyOptional({
    description: 'With two or more ids: merges the issues into the one with the most events (one project only). `1` and `true` alike, as in Sentry.',
  })
  @IfPresent()
  @IsIn(MERGE_FLAGS)
  merge?: boolean | number | string;

  @ApiPropertyOptional({ description: 'Discarding is not supported: only false is accepted.' })
  @IfPresent()
  @IsBoolean()
  discard?: boolean;
}

export class IssueCommentDto {
  @ApiProperty({ maxLength: 5000 })
  @IsString()
  text: string;
}

/** Text PostgreSQL can store: no NUL, no lone surrogate. */
// eslint-disable-next-line no-control-regex -- NUL is one of the characters it refuses
const STORABLE = /^[^\u0000\ud800-\udfff]*$/u;
const STORABLE_MESSAGE = 'must not contain NUL or unpaired surrogate characters';

/** Sentry's legacy user feedback: a report about one event, with Sentry's field limits. */
export class UserFeedbackDto {
  @ApiProperty({ description: 'The event the report is about (32 hexadecimal digits).' })
  @IsString()
  @Length(32, 36)
  event_id: string;

  @ApiProperty({ maxLength: 128 })
  @IsString()
  @Length(0, 128)
  @Matches(STORABLE, { message: `name ${STORABLE_MESSAGE}` })
  name: string;

  @ApiProperty({ maxLength: 75 })
  @IsString()
  @Length(0, 75)
  @Matches(STORABLE, { message: `email ${STORABLE_MESSAGE}` })
  email: string;

  @ApiProperty({ maxLength: 4096 })
  @IsString()
  @Length(1, 4096)
  @Matches(STORABLE, { message: `comments ${STORABLE_MESSAGE}` })
  comments: string;
}
