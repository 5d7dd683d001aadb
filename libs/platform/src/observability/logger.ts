import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { LogFormat } from '../config';

export function createLogger(level: string, role: string, format: LogFormat = 'json'): Logger {
  const options = { level, base: { service: 'faultline', role }, timestamp: pino.stdTimeFunctions.isoTime };
  if (format !== 'pretty') return pino(options);
  // Synchronous, in this thread: nothing is lost when the process exits right after a line.
  return pino(options, pretty({ sync: true, colorize: Boolean(process.stdout.isTTY), translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,service,role' }));
}

/** Start-up chatter (one line per module and route) that only matters when debugging. */
const QUIET_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/** Nest's own log lines through the same pino logger. */
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
