import { IfPresent } from '@faultline/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsString, MaxLength } from 'class-validator';

export class CheckHookUrlDto {
  @ApiProperty({ description: 'The URL a hook would POST to', maxLength: 2048 })
  @IsString()
  @MaxLength(2048)
  url!: string;
}

export class CreateServiceHookDto {
  @ApiProperty({ description: 'Absolute http(s) URL that receives the POSTs', maxLength: 2048 })
  @IsString()
  @MaxLength(2048)
  url!: string;

  @ApiProperty({ type: [String], description: 'event.alert and/or event.created' })
  @IsArray()
  @ArrayMaxSize(10)
  @IsString({ each: true })
  events!: string[];
}

export class UpdateServiceHookDto {
  @ApiPropertyOptional({ maxLength: 2048 })
  @IfPresent()
  @IsString()
  @MaxLength(2048)
  url?: string;

  @ApiPropertyOptional({ type: [String] })
  @IfPresent()
  @IsArray()
  @ArrayMaxSize(10)
  @IsString({ each: true })
  events?: string[];

  @ApiPropertyOptional({ description: 'false disables the hook (nothing is sent), true enables it again' })
  @IfPresent()
  @IsBoolean()
  isActive?: boolean;
}
