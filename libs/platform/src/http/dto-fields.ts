import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Length, Matches, ValidateIf } from 'class-validator';

/**
 * A field the client may leave out; when it is sent, null included, it must pass the field's rules.
 * (class-validator's IsOptional also waves null through, which then reaches code that expects a value.)
 */
export const IfPresent = () => ValidateIf((_, value) => value !== undefined);

const SLUG = /^(?![0-9]+$)[a-z0-9_-]+$/;

/** An optional slug: lowercase letters, digits, - and _, not only digits (Sentry's rule). */
export const OptionalSlugField = () =>
  applyDecorators(
    ApiPropertyOptional({ maxLength: 50, pattern: SLUG.source }),
    IfPresent(),
    IsString(),
    Length(1, 50),
    Matches(SLUG, { message: 'slug must be lowercase letters, numbers, - or _, and not only digits' }),
  );

/** A display name of 1 to `max` characters. */
export const NameField = (max: number, options: { optional?: boolean } = {}) =>
  options.optional
    ? applyDecorators(ApiPropertyOptional({ maxLength: max }), IfPresent(), IsString(), Length(1, max))
    : applyDecorators(ApiProperty({ maxLength: max }), IsString(), Length(1, max));
