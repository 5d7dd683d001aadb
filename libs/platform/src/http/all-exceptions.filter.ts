import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { toErrorResponse } from './error-body';

/** Every error answers JSON `{"detail": ...}`; anything unexpected is logged and answers 500. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(error: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const mapped = toErrorResponse(error);
    if (mapped) {
      void reply.status(mapped.status).send(mapped.body);
      return;
    }
    this.logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    void reply.status(500).send({ detail: 'Internal Error' });
  }
}
