import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { DomainError } from '@faultline/kernel';
import { VersionMismatchError } from '@faultline/identity';
import { toErrorResponse } from '@faultline/platform';
import type { FastifyReply } from 'fastify';
import { ScimError } from '../domain/scim-error';
import { scimErrorBody } from './scim.serializers';

export const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';

const SCIM_TYPE_BY_STATUS: Record<number, string> = { 400: 'invalidValue', 409: 'uniqueness' };

/** Status and SCIM error body for anything thrown while answering a SCIM request. */
export function scimErrorResponse(error: unknown): { status: number; body: Record<string, unknown> } | undefined {
  if (error instanceof ScimError) return { status: error.status, body: scimErrorBody(error.status, error.detail, error.scimType) };
  if (error instanceof VersionMismatchError) return { status: 412, body: scimErrorBody(412, error.message) };
  if (error instanceof HttpException && error.getStatus() === 404) return { status: 404, body: scimErrorBody(404, 'The requested resource does not exist') };
  if (error instanceof DomainError && error.code === 'not_found') return { status: 404, body: scimErrorBody(404, error.message) };
  const mapped = toErrorResponse(error);
  if (!mapped) return undefined;
  return { status: mapped.status, body: scimErrorBody(mapped.status, String(mapped.body.detail), SCIM_TYPE_BY_STATUS[mapped.status]) };
}

/** SCIM's error format (RFC 7644 §3.12) for the SCIM controllers, in place of `{"detail": ...}`. */
@Catch()
export class ScimExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('SCIM');

  catch(error: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const response = scimErrorResponse(error);
    if (!response) this.logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    const { status, body } = response ?? { status: 500, body: scimErrorBody(500, 'Internal Error') };
    void reply.status(status).header('content-type', SCIM_CONTENT_TYPE).send(body);
  }
}
