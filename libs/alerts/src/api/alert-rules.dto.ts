import { IfPresent } from '@faultline/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsNumber, IsObject, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';

/**
 * The fields of Sentry's issue alert rule body. The items of `conditions`, `filters` and `actions`
 * are checked by their Sentry id in the domain, which names the item at fault.
 */
export class IssueAlertRuleDto {
  @ApiProperty({ maxLength: 256 })
  @IsString()
  @MaxLength(256)
  name!: string;

  @ApiProperty({ enum: ['all', 'any', 'none'], description: 'how the conditions combine' })
  @IsString()
  actionMatch!: string;

  @ApiPropertyOptional({ enum: ['all', 'any', 'none'], description: 'how the filters combine (default all)' })
  @IfPresent()
  @IsString()
  filterMatch?: string;

  @ApiPropertyOptional({ description: 'minimum minutes between two fires of the rule for one issue (5 to 43200, default 30)' })
  @IfPresent()
  @IsInt()
  frequency?: number;

  @ApiPropertyOptional({ type: 'string', nullable: true })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString()
  environment?: string | null;

  @ApiPropertyOptional({ type: 'string', nullable: true, description: '"user:<id>" or "team:<id>"' })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString()
  owner?: string | null;

  @ApiProperty({ type: 'array', items: { type: 'object' }, description: 'e.g. {"id": "sentry.rules.conditions.first_seen_event.FirstSeenEventCondition"}' })
  @IsArray()
  @ArrayMaxSize(50)
  @IsObject({ each: true })
  conditions!: Array<Record<string, unknown>>;

  @ApiPropertyOptional({ type: 'array', items: { type: 'object' } })
  @IfPresent()
  @IsArray()
  @ArrayMaxSize(50)
  @IsObject({ each: true })
  filters?: Array<Record<string, unknown>>;

  @ApiProperty({ type: 'array', items: { type: 'object' }, description: 'e.g. {"id": "sentry.rules.actions.notify_event.NotifyEventAction"}' })
  @IsArray()
  @ArrayMaxSize(50)
  @IsObject({ each: true })
  actions!: Array<Record<string, unknown>>;

  @ApiPropertyOptional({ type: [String], description: 'accepted for compatibility; a rule belongs to the project of its path' })
  @IfPresent()
  @IsArray()
  @IsString({ each: true })
  projects?: string[];
}

/** PUT takes the same fields, each optional (missing ones keep their value). */
export class UpdateIssueAlertRuleDto {
  @ApiPropertyOptional() @IfPresent() @IsString() @MaxLength(256) name?: string;
  @ApiPropertyOptional() @IfPresent() @IsString() actionMatch?: string;
  @ApiPropertyOptional() @IfPresent() @IsString() filterMatch?: string;
  @ApiPropertyOptional() @IfPresent() @IsInt() frequency?: number;
  @ApiPropertyOptional({ type: 'string', nullable: true }) @IsOptional() @ValidateIf((_, value) => value !== null) @IsString() environment?: string | null;
  @ApiPropertyOptional({ type: 'string', nullable: true }) @IsOptional() @ValidateIf((_, value) => value !== null) @IsString() owner?: string | null;
  @ApiPropertyOptional({ type: 'array', items: { type: 'object' } }) @IfPresent() @IsArray() @ArrayMaxSize(50) @IsObject({ each: true }) conditions?: Array<
    Record<string, unknown>
  >;
  @ApiPropertyOptional({ type: 'array', items: { type: 'object' } }) @IfPresent() @IsArray() @ArrayMaxSize(50) @IsObject({ each: true }) filters?: Array<
    Record<string, unknown>
  >;
  @ApiPropertyOptional({ type: 'array', items: { type: 'object' } }) @IfPresent() @IsArray() @ArrayMaxSize(50) @IsObject({ each: true }) actions?: Array<
    Record<string, unknown>
  >;
  @ApiPropertyOptional({ type: [String] }) @IfPresent() @IsArray() @IsString({ each: true }) projects?: string[];
}

/** Sentry's metric alert rule body; triggers and their actions are checked in the domain. */
export class MetricAlertRuleDto {
  @ApiProperty({ maxLength: 256 })
  @IsString()
  @MaxLength(256)
  name!: string;

  @ApiProperty({ enum: ['count()', 'count_unique(user)'] })
  @IsString()
  aggregate!: string;

  @ApiProperty({ description: 'minutes: 1, 5, 10, 15, 30, 60, 120, 240 or 1440' })
  @IsNumber()
  timeWindow!: number;

  @ApiProperty({ type: [String], description: 'project slugs' })
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  projects!: string[];

  @ApiProperty({
    type: 'array',
    items: { type: 'object' },
    description: 'a critical trigger and an optional warning trigger: {label, alertThreshold, actions}',
  })
  @IsArray()
  @ArrayMaxSize(2)
  @IsObject({ each: true })
  triggers!: Array<Record<string, unknown>>;

  @ApiPropertyOptional({ enum: [0, 1], description: '0: above the thresholds, 1: below' })
  @IfPresent()
  @IsIn([0, 1])
  thresholdType?: number;

  @ApiPropertyOptional({ type: 'number', nullable: true })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsNumber()
  resolveThreshold?: number | null;

  @ApiPropertyOptional({ description: 'must be empty: search filters are not supported' })
  @IfPresent()
  @IsString()
  query?: string;

  @ApiPropertyOptional({ enum: ['events', 'errors'] })
  @IfPresent()
  @IsString()
  dataset?: string;

  @ApiPropertyOptional({ type: 'string', nullable: true })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString()
  environment?: string | null;

  @ApiPropertyOptional({ type: 'string', nullable: true })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString()
  owner?: string | null;

  @ApiPropertyOptional({ type: [String], description: 'accepted for compatibility: always errors' })
  @IfPresent()
  @IsArray()
  @IsString({ each: true })
  eventTypes?: string[];

  @ApiPropertyOptional({ description: 'accepted for compatibility: always 1' })
  @IfPresent()
  @IsNumber()
  thresholdPeriod?: number;

  @ApiPropertyOptional({ description: 'accepted for compatibility: always 1' })
  @IfPresent()
  @IsNumber()
  resolution?: number;
}

export class UpdateMetricAlertRuleDto {
  @ApiPropertyOptional() @IfPresent() @IsString() @MaxLength(256) name?: string;
  @ApiPropertyOptional() @IfPresent() @IsString() aggregate?: string;
  @ApiPropertyOptional() @IfPresent() @IsNumber() timeWindow?: number;
  @ApiPropertyOptional({ type: [String] }) @IfPresent() @IsArray() @ArrayMaxSize(100) @IsString({ each: true }) projects?: string[];
  @ApiPropertyOptional({ type: 'array', items: { type: 'object' } }) @IfPresent() @IsArray() @ArrayMaxSize(2) @IsObject({ each: true }) triggers?: Array<
    Record<string, unknown>
  >;
  @ApiPropertyOptional() @IfPresent() @IsIn([0, 1]) thresholdType?: number;
  @ApiPropertyOptional({ type: 'number', nullable: true }) @IsOptional() @ValidateIf((_, value) => value !== null) @IsNumber() resolveThreshold?: number | null;
  @ApiPropertyOptional() @IfPresent() @IsString() query?: string;
  @ApiPropertyOptional() @IfPresent() @IsString() dataset?: string;
  @ApiPropertyOptional({ type: 'string', nullable: true }) @IsOptional() @ValidateIf((_, value) => value !== null) @IsString() environment?: string | null;
  @ApiPropertyOptional({ type: 'string', nullable: true }) @IsOptional() @ValidateIf((_, value) => value !== null) @IsString() owner?: string | null;
  @ApiPropertyOptional({ type: [String] }) @IfPresent() @IsArray() @IsString({ each: true }) eventTypes?: string[];
  @ApiPropertyOptional() @IfPresent() @IsNumber() thresholdPeriod?: number;
  @ApiPropertyOptional() @IfPresent() @IsNumber() resolution?: number;
}

/** The actions of a rule being written, to test. */
export class TestNotificationDto {
  @ApiProperty({ type: 'array', items: { type: 'object' } })
  @IsArray()
  @ArrayMaxSize(50)
  actions!: unknown[];
}
