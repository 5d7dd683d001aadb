import { resolve } from 'node:path';

export type Role = 'all' | 'api' | 'worker';

export interface AppConfig {
  readonly role: Role;
  readonly port: number;
  readonly host: string;
  /** PostgreSQL connection string; undefined means the embedded PGlite database under dataDir. */
  readonly databaseUrl?: string;
  readonly databasePoolSize: number;
  readonly dataDir: string;
  readonly publicUrl: string;
  readonly logLevel: string;
  readonly bodyLimitBytes: number;
  readonly defaultProjectFeatures: readonly string[];
  /** Raw SDK events older than this many days are pruned. */
  readonly eventRetentionDays: number;
  readonly bootstrap: {
    readonly token?: string;
    readonly org: string;
    readonly project: string;
    readonly email: string;
  };
}

export class ConfigError extends Error {}

const ROLES: readonly Role[] = ['all', 'api', 'worker'];
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
export const DEFAULT_PROJECT_FEATURES = ['servicehooks'];

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

function list(raw: string | undefined, fallback: readonly string[]): readonly string[] {
  if (raw === undefined) return fallback;
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** Reads the service's configuration from the environment; every setting is in the README table. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const role = (env.ROLE ?? 'all') as Role;
  if (!ROLES.includes(role)) throw new ConfigError(`ROLE must be one of ${ROLES.join(', ')}, got "${env.ROLE}"`);
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const port = integer(env, 'PORT', 9000, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// connection string');
  }
  const publicUrl = (env.PUBLIC_URL || `http://${host.includes(':') ? `[${host}]` : host}:${port}`).replace(/\/+$/, '');
  try {
    new URL(publicUrl);
  } catch {
    throw new ConfigError(`PUBLIC_URL must be an absolute URL, got "${env.PUBLIC_URL}"`);
  }
  return {
    role,
    port,
    host,
    databaseUrl,
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', 10, 1, 500),
    dataDir: resolve(env.DATA_DIR || './data'),
    publicUrl,
    logLevel,
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024, 256 * 1024 * 1024),
    defaultProjectFeatures: list(env.DEFAULT_PROJECT_FEATURES, DEFAULT_PROJECT_FEATURES),
    eventRetentionDays: integer(env, 'EVENT_RETENTION_DAYS', 90, 1, 3650),
    bootstrap: {
      token: env.BOOTSTRAP_TOKEN || undefined,
      org: env.BOOTSTRAP_ORG || 'faultline',
      project: env.BOOTSTRAP_PROJECT || 'default',
      email: env.BOOTSTRAP_EMAIL || 'admin@localhost',
    },
  };
}

/** The injection token of the AppConfig. */
export const APP_CONFIG = Symbol('AppConfig');
