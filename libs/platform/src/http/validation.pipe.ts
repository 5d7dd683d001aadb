import { BadRequestException, type ArgumentMetadata, ValidationPipe, type ValidationError } from '@nestjs/common';
import { humanMessage } from './validation-messages';

function flatten(errors: ValidationError[], prefix = ''): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  for (const error of errors) {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    if (error.constraints) result[path] = Object.entries(error.constraints).map(([constraint, message]) => humanMessage(constraint, message));
    if (error.children?.length) Object.assign(result, flatten(error.children, path));
  }
  return result;
}

/**
 * class-validator at the edge: unknown fields are refused, and the 400 names each field:
 * `{"detail": "Invalid request: slug: ...", "errors": {"slug": ["..."]}}`, in sentences a form can show.
 */
export class ApiValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      transformOptions: { enableImplicitConversion: false },
      exceptionFactory: (errors) => {
        const fields = flatten(errors);
        const summary = Object.entries(fields)
          .map(([field, messages]) => `${field}: ${messages.join(', ')}`)
          .join('; ');
        return new BadRequestException({ detail: `Invalid request: ${summary}`, errors: fields });
      },
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const isDtoBody = metadata.type === 'body' && metadata.metatype && ![Object, Array, String, Number, Boolean].includes(metadata.metatype as never);
    if (isDtoBody && value !== undefined && (value === null || typeof value !== 'object' || Array.isArray(value))) {
      throw new BadRequestException({ detail: 'Request body must be a JSON object.' });
    }
    // A parameter declared as one string, given twice (`?query=a&query=b`), is refused rather than
    // joined into "a,b" or passed on as an array.
    if (metadata.type === 'query' && metadata.data && metadata.metatype === String && Array.isArray(value)) {
      throw new BadRequestException({ detail: `${metadata.data} may be given only once` });
    }
    return super.transform(isDtoBody && value === undefined ? {} : value, metadata);
  }
}
