import type { LoggerService } from '@nestjs/common';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogFormat } from '../config';

type PrettyFactory = (options: Record<string, unknown>) => DestinationStream;

/** pino-pretty, when installed; without it LOG_FORMAT=pretty falls back to JSON and says so. */
export function loadPretty(): PrettyFactory | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const module = require('pino-pretty') as PrettyFactory | { default: PrettyFactory };
    return typeof module === 'function' ? module : module.default;
  } catch {
    return undefined;
  }
}

export function createLogger(level: string, role: string, format: LogFormat = 'json'): Logger {
  const options = { level, base: { service: 'faultline', role }, timestamp: pino.stdTimeFunctions.isoTime };
  if (format !== 'pretty') return pino(options);
  const pretty = loadPretty();
  if (!pretty) {
    const logger = pino(options);
    logger.warn('LOG_FORMAT=pretty needs the pino-pretty package, which is not installed: logging JSON');
    return logger;
  }
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
