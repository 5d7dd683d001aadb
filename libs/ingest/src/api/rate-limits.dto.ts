import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsObject, Max, Min, ValidateIf, ValidateNested } from 'class-validator';
import { IfPresent } from '@faultline/platform';

/** May be absent or null (null removes the organization's own quota); when a number, validated. */
const UnlessCleared = () => ValidateIf((_, value) => value !== undefined && value !== null);

/** Items per category and organization window; null removes the organization's own quota. */
export class OrganizationQuotasDto {
  @ApiPropertyOptional({ type: Number, nullable: true })
  @UnlessCleared()
  @IsInt()
  @Min(1)
  @Max(1_000_000_000)
  error?: number | null;

  @ApiPropertyOptional({ type: Number, nullable: true })
  @UnlessCleared()
  @IsInt()
  @Min(1)
  @Max(1_000_000_000)
  user_report?: number | null;

  @ApiPropertyOptional({ type: Number, nullable: true })
  @UnlessCleared()
  @IsInt()
  @Min(1)
  @Max(1_000_000_000)
  check_in?: number | null;

  @ApiPropertyOptional({ type: Number, nullable: true })
  @UnlessCleared()
  @IsInt()
  @Min(1)
  @Max(1_000_000_000)
  session?: number | null;
}

export class UpdateRateLimitsDto {
  @ApiPropertyOptional()
  @IfPresent()
  @IsBoolean()
  spikeProtection?: boolean;

  @ApiPropertyOptional({ type: OrganizationQuotasDto })
  @IfPresent()
  @IsObject()
  @ValidateNested()
  @Type(() => OrganizationQuotasDto)
  quotas?: OrganizationQuotasDto;
}
