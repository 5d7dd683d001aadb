import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length, Matches } from 'class-validator';

const SLUG = /^(?![0-9]+$)[a-z0-9_-]+$/;

/** An optional slug: lowercase letters, digits, - and _, not only digits (Sentry's rule). */
export const OptionalSlugField = () =>
  applyDecorators(
    ApiPropertyOptional({ maxLength: 50, pattern: SLUG.source }),
    IsOptional(),
    IsString(),
    Length(1, 50),
    Matches(SLUG, { message: 'slug must be lowercase letters, numbers, - or _, and not only digits' }),
  );

/** A display name of 1 to `max` characters. */
export const NameField = (max: number, options: { optional?: boolean } = {}) =>
  options.optional
    ? applyDecorators(ApiPropertyOptional({ maxLength: max }), IsOptional(), IsString(), Length(1, max))
    : applyDecorators(ApiProperty({ maxLength: max }), IsString(), Length(1, max));
