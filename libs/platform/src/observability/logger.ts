import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';

export function createLogger(level: string, role: string): Logger {
  return pino({ level, base: { service: 'faultline', role }, timestamp: pino.stdTimeFunctions.isoTime });
}

/** Start-up chatter (one line per module and route) that only matters when debugging. */
const QUIET_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/** Nest's own log lines through the same pino logger, as JSON. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    if (context && QUIET_CONTEXTS.has(context)) this.logger.debug({ context }, String(message));
    else this.logger.info({ context }, String(message));
  }

  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ context, trace }, String(message));
  }

  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }

  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }

  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, String(message));
  }
}
