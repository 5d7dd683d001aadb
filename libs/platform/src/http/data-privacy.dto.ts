import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsString, MaxLength, ValidateIf } from 'class-validator';
import { DATA_PRIVACY_LIMITS } from '@faultline/kernel';
import { IfPresent } from './dto-fields';

/** Sentry's choices of how many crash reports to keep per issue: -1 all, 0 none; null (projects only) follows the organization. */
export const STORE_CRASH_REPORTS_VALUES = [0, 1, 5, 10, 20, 50, 100, -1] as const;

/**
 * Sentry's data scrubbing settings as `PUT /projects/{org}/{project}/` and `PUT /organizations/{org}/`
 * both take them: absent fields stay as they are.
 */
export class DataPrivacyChangesDto {
  @ApiPropertyOptional({ description: 'Scrub data (the default rules and sensitiveFields).' })
  @IfPresent()
  @IsBoolean()
  dataScrubber?: boolean;

  @ApiPropertyOptional({ description: 'Apply the default rules: sensitive keys, card numbers, PEM keys, URL passwords, session cookies.' })
  @IfPresent()
  @IsBoolean()
  dataScrubberDefaults?: boolean;

  @ApiPropertyOptional({
    type: [String],
    description: `More keys to scrub; at most ${DATA_PRIVACY_LIMITS.maxFields} of ${DATA_PRIVACY_LIMITS.maxFieldLength} characters.`,
  })
  @IfPresent()
  @IsArray()
  @ArrayMaxSize(DATA_PRIVACY_LIMITS.maxFields)
  @IsString({ each: true })
  @MaxLength(DATA_PRIVACY_LIMITS.maxFieldLength, { each: true })
  sensitiveFields?: string[];

  @ApiPropertyOptional({
    type: [String],
    description: `Keys never scrubbed; at most ${DATA_PRIVACY_LIMITS.maxFields} of ${DATA_PRIVACY_LIMITS.maxFieldLength} characters.`,
  })
  @IfPresent()
  @IsArray()
  @ArrayMaxSize(DATA_PRIVACY_LIMITS.maxFields)
  @IsString({ each: true })
  @MaxLength(DATA_PRIVACY_LIMITS.maxFieldLength, { each: true })
  safeFields?: string[];

  @ApiPropertyOptional({ description: 'Remove IP addresses.' })
  @IfPresent()
  @IsBoolean()
  scrubIPAddresses?: boolean;

  @ApiPropertyOptional({
    enum: STORE_CRASH_REPORTS_VALUES,
    nullable: true,
    description: 'Crash reports kept per issue; null follows the organization (projects only).',
  })
  @ValidateIf((_, value) => value !== undefined && value !== null)
  @IsIn(STORE_CRASH_REPORTS_VALUES)
  storeCrashReports?: number | null;
}

/** The data privacy fields of a change, trimmed and without repeats, or undefined when it names none. */
export function dataPrivacyChanges(body: DataPrivacyChangesDto): DataPrivacyChangesDto {
  const clean = (fields: string[] | undefined) => fields && [...new Set(fields.map((field) => field.trim()).filter((field) => field !== ''))];
  return Object.fromEntries(
    Object.entries({
      dataScrubber: body.dataScrubber,
      dataScrubberDefaults: body.dataScrubberDefaults,
      sensitiveFields: clean(body.sensitiveFields),
      safeFields: clean(body.safeFields),
      scrubIPAddresses: body.scrubIPAddresses,
      storeCrashReports: body.storeCrashReports,
    }).filter(([, value]) => value !== undefined),
  );
}
