import { HttpException } from '@nestjs/common';
import { DomainError, type DomainErrorCode } from '@faultline/kernel';
import { QUERY_CANCELED } from '../database/statement-timeout';
import { UNSTORABLE_TEXT_DETAIL } from './storable-input';

export const QUERY_TIMEOUT_DETAIL = 'Query timeout: the query took too long and was cancelled. Try a smaller date range, fewer projects or a narrower search.';

export interface ErrorResponse {
  status: number;
  body: { detail: string } & Record<string, unknown>;
}

const DOMAIN_STATUS: Record<DomainErrorCode, number> = {
  not_found: 404,
  conflict: 409,
  forbidden: 403,
  invalid: 400,
  unauthenticated: 401,
  concurrency: 409,
};

const FASTIFY_DETAIL: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type; send application/json.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body is empty; send a JSON object.',
  FST_ERR_CTP_INVALID_JSON_BODY: 'Malformed JSON body.',
};

function statusFromHttpException(error: HttpException): ErrorResponse {
  const status = error.getStatus();
  const response = error.getResponse();
  if (typeof response === 'object' && response !== null && 'detail' in response) {
    return { status, body: response as ErrorResponse['body'] };
  }
  const message =
    typeof response === 'string'
      ? response
      : Array.isArray((response as { message?: unknown }).message)
        ? (response as { message: string[] }).message.join('; ')
        : String((response as { message?: unknown }).message ?? error.message);
  if (status === 404) return { status, body: { detail: 'The requested resource does not exist' } };
  return { status, body: { detail: message } };
}

/** Maps anything thrown while handling a request to a status and a `{"detail": ...}` body. */
export function toErrorResponse(error: unknown): ErrorResponse | undefined {
  if (error instanceof HttpException) return statusFromHttpException(error);
  if (error instanceof DomainError) {
    return { status: DOMAIN_STATUS[error.code], body: { detail: error.message, ...(error.details ?? {}) } };
  }
  const candidate = error as { statusCode?: number; code?: string; message?: string } | null;
  if (candidate && typeof candidate.code === 'string' && candidate.code in FASTIFY_DETAIL) {
    return { status: candidate.statusCode ?? 400, body: { detail: FASTIFY_DETAIL[candidate.code] } };
  }
  if (error instanceof SyntaxError && typeof candidate?.statusCode === 'number') {
    return { status: 400, body: { detail: 'Malformed JSON body.' } };
  }
  if (candidate && typeof candidate.statusCode === 'number' && candidate.statusCode >= 400 && candidate.statusCode < 500) {
    return { status: candidate.statusCode, body: { detail: candidate.message ?? 'Bad request' } };
  }
  if (candidate?.code === '23505') {
    return { status: 409, body: { detail: 'A resource with these values already exists.' } };
  }
  // A statement of the request ran past API_STATEMENT_TIMEOUT_MS: the server gave up, as Sentry does on a query timeout.
  if (candidate?.code === QUERY_CANCELED) {
    return { status: 503, body: { detail: QUERY_TIMEOUT_DETAIL } };
  }
  // A NUL character (in a path, a query or a JSON string) that PostgreSQL text cannot hold.
  if (candidate?.code === '22021' || candidate?.code === '22P05') {
    return { status: 400, body: { detail: UNSTORABLE_TEXT_DETAIL } };
  }
  return undefined;
}
