import { resolve } from 'node:path';
import ipaddr from 'ipaddr.js';

export type Role = 'all' | 'api' | 'worker';
export type LogFormat = 'json' | 'pretty';

export interface AppConfig {
  readonly role: Role;
  readonly port: number;
  readonly host: string;
  /** PostgreSQL connection string; undefined means the embedded PostgreSQL server under dataDir. */
  readonly databaseUrl?: string;
  readonly databasePoolSize: number;
  /** Each database statement of an API request is cancelled after this long (0: no limit); workers and migrations have none. */
  readonly apiStatementTimeoutMs: number;
  readonly dataDir: string;
  readonly publicUrl: string;
  readonly logLevel: string;
  /** `pretty` (readable lines, for a terminal) or `json` (one object a line, for collectors); LOG_FORMAT, by default pretty on a terminal. */
  readonly logFormat: LogFormat;
  readonly bodyLimitBytes: number;
  /**
   * Which proxies' X-Forwarded-For / -Proto / -Host to believe (TRUST_PROXY): none (the socket's
   * address is the client's), the number of proxy hops in front of the service, or the proxies'
   * addresses and CIDR ranges.
   */
  readonly trustProxy: false | number | readonly string[];
  readonly defaultProjectFeatures: readonly string[];
  /** Raw SDK events older than this many days are pruned. */
  readonly eventRetentionDays: number;
  readonly webhooks: WebhookConfig;
  readonly alerts: AlertsConfig;
  /** Extension modules to load at start: package names or paths, in order (FAULTLINE_MODULES). */
  readonly modules: readonly string[];
  /**
   * The environment this configuration was read from. Modules read their own settings from it
   * (prefixed with their name), so a test or a supervisor that passes variables to loadConfig
   * reaches them too.
   */
  readonly environment: Readonly<Record<string, string | undefined>>;
  /** The web interface's sign-in sessions. */
  readonly sessions: SessionConfig;
  readonly bootstrap: {
    readonly token?: string;
    /** The bootstrap user's web sign-in password; generated and printed once when unset. */
    readonly password?: string;
    readonly org: string;
    readonly project: string;
    readonly email: string;
  };
}

export interface AlertsConfig {
  /** How often each metric alert rule is evaluated. */
  readonly metricEvaluationSeconds: number;
  /** How long a process keeps a project's alert rules before reading them again (changes made in the process apply at once). */
  readonly ruleCacheSeconds: number;
}

export interface SessionConfig {
  /** A session ends this long after sign-in. */
  readonly ttlMs: number;
  /** The session cookie carries `Secure`: PUBLIC_URL is https. */
  readonly secureCookie: boolean;
}

export interface WebhookConfig {
  /** `X-<brand>-Hook-Signature` */
  readonly headerBrand: string;
  /** One deadline over connect, response headers and body. */
  readonly timeoutMs: number;
  /** The same for service-app webhooks, which Sentry gives one second. */
  readonly appTimeoutMs: number;
  readonly allowPrivate: boolean;
  /** Ranges reachable even when private (e.g. an internal receiver's network). */
  readonly allowedCidrs: readonly string[];
  /** Seconds to wait before each retry; the delivery fails once they run out. */
  readonly retryScheduleSeconds: readonly number[];
  /** A target failing every attempt for this long is disabled. */
  readonly disableAfterMs: number;
  /** Requests in flight per process, and per target (one slow target never holds up the rest). */
  readonly concurrency: number;
  readonly targetConcurrency: number;
  /** Delivery attempts older than this are pruned. */
  readonly attemptRetentionDays: number;
}

/** About 27 hours with jitter, as Svix does: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 36000];

export class ConfigError extends Error {}

const ROLES: readonly Role[] = ['all', 'api', 'worker'];
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const LOG_FORMATS: readonly LogFormat[] = ['json', 'pretty'];
export const DEFAULT_PROJECT_FEATURES = ['servicehooks'];

/** A whole-number setting between `min` and `max`; unset or empty is `fallback`. The one reader every context's config uses. */
export function integerSetting(env: Readonly<Record<string, string | undefined>>, name: string, fallback: number, min: number, max: number): number {
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

/** Reads the service's configuration from the environment; every setting is in docs/configuration.md (a test keeps it so). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const role = (env.ROLE ?? 'all') as Role;
  if (!ROLES.includes(role)) throw new ConfigError(`ROLE must be one of ${ROLES.join(', ')}, got "${env.ROLE}"`);
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  // Unset: readable on a terminal, JSON lines for whatever collects the output.
  const logFormat = (env.LOG_FORMAT || (process.stdout.isTTY ? 'pretty' : 'json')) as LogFormat;
  if (!LOG_FORMATS.includes(logFormat)) throw new ConfigError(`LOG_FORMAT must be one of ${LOG_FORMATS.join(', ')}, got "${logFormat}"`);
  const port = integerSetting(env, 'PORT', 9000, 0, 65535);
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
    databasePoolSize: integerSetting(env, 'DATABASE_POOL_SIZE', 10, 1, 500),
    apiStatementTimeoutMs: integerSetting(env, 'API_STATEMENT_TIMEOUT_MS', 30_000, 0, 3_600_000),
    dataDir: resolve(env.DATA_DIR || './data'),
    publicUrl,
    logLevel,
    logFormat,
    bodyLimitBytes: integerSetting(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024, 256 * 1024 * 1024),
    trustProxy: trustedProxies(env.TRUST_PROXY),
    defaultProjectFeatures: list(env.DEFAULT_PROJECT_FEATURES, DEFAULT_PROJECT_FEATURES),
    eventRetentionDays: integerSetting(env, 'EVENT_RETENTION_DAYS', 90, 1, 3650),
    webhooks: webhookConfig(env),
    alerts: {
      metricEvaluationSeconds: integerSetting(env, 'METRIC_ALERT_EVALUATION_SECONDS', 60, 1, 3600),
      ruleCacheSeconds: integerSetting(env, 'ALERT_RULE_CACHE_SECONDS', 5, 0, 300),
    },
    modules: moduleList(env.FAULTLINE_MODULES),
    environment: Object.freeze({ ...env }),
    sessions: {
      ttlMs: integerSetting(env, 'SESSION_TTL_HOURS', 336, 1, 24 * 365) * 3_600_000,
      secureCookie: publicUrl.startsWith('https:'),
    },
    bootstrap: {
      token: env.BOOTSTRAP_TOKEN || undefined,
      password: env.BOOTSTRAP_PASSWORD || undefined,
      org: env.BOOTSTRAP_ORG || 'faultline',
      project: env.BOOTSTRAP_PROJECT || 'default',
      email: env.BOOTSTRAP_EMAIL || 'admin@localhost',
    },
  };
}

/** Names proxy-addr (Fastify's trustProxy) knows for the reserved ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function trustedProxies(raw: string | undefined): AppConfig['trustProxy'] {
  const value = raw?.trim() ?? '';
  if (value === '' || value === 'false') return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops < 1 || hops > 16) throw new ConfigError(`TRUST_PROXY as a hop count must be between 1 and 16, got "${raw}"`);
    return hops;
  }
  const proxies = list(value, []);
  for (const proxy of proxies) {
    const address =
      ipaddr.IPv4.isValidFourPartDecimal(proxy) ||
      ipaddr.IPv4.isValidCIDRFourPartDecimal(proxy) ||
      ipaddr.IPv6.isValid(proxy) ||
      ipaddr.IPv6.isValidCIDR(proxy);
    if (!address && !PROXY_RANGE_NAMES.includes(proxy)) {
      throw new ConfigError(
        `TRUST_PROXY must be false, a hop count, or comma-separated proxy addresses, CIDR ranges or ${PROXY_RANGE_NAMES.join(', ')}; "${proxy}" is none of these`,
      );
    }
  }
  return proxies;
}

function moduleList(raw: string | undefined): readonly string[] {
  const modules = list(raw, []);
  const seen = new Set<string>();
  for (const module of modules) {
    if (seen.has(module)) throw new ConfigError(`FAULTLINE_MODULES lists "${module}" twice`);
    seen.add(module);
  }
  return modules;
}

function webhookConfig(env: NodeJS.ProcessEnv): WebhookConfig {
  const brand = env.WEBHOOK_HEADER_BRAND ?? 'Sentry';
  if (!/^[A-Za-z0-9][A-Za-z0-9-]*$/.test(brand)) throw new ConfigError(`WEBHOOK_HEADER_BRAND must be letters, digits and -, got "${brand}"`);
  const schedule = list(env.WEBHOOK_RETRY_SCHEDULE, DEFAULT_WEBHOOK_RETRY_SCHEDULE.map(String)).map(Number);
  if (schedule.some((seconds) => !Number.isFinite(seconds) || seconds < 0 || seconds > 7 * 86_400)) {
    throw new ConfigError(`WEBHOOK_RETRY_SCHEDULE must be comma-separated seconds (0 to 604800), got "${env.WEBHOOK_RETRY_SCHEDULE}"`);
  }
  const allowPrivate = env.WEBHOOK_ALLOW_PRIVATE ?? 'false';
  if (!['true', 'false'].includes(allowPrivate)) throw new ConfigError(`WEBHOOK_ALLOW_PRIVATE must be true or false, got "${allowPrivate}"`);
  const allowedCidrs = list(env.WEBHOOK_ALLOWED_CIDRS, []);
  for (const cidr of allowedCidrs) {
    if (!/^[0-9a-fA-F:.]+\/\d{1,3}$/.test(cidr)) throw new ConfigError(`WEBHOOK_ALLOWED_CIDRS: "${cidr}" is not a CIDR range`);
  }
  return {
    headerBrand: brand,
    timeoutMs: integerSetting(env, 'WEBHOOK_TIMEOUT_MS', 5000, 100, 60_000),
    appTimeoutMs: integerSetting(env, 'WEBHOOK_APP_TIMEOUT_MS', 1000, 100, 60_000),
    allowPrivate: allowPrivate === 'true',
    allowedCidrs,
    retryScheduleSeconds: schedule,
    disableAfterMs: integerSetting(env, 'WEBHOOK_DISABLE_AFTER_HOURS', 72, 1, 24 * 365) * 3_600_000,
    concurrency: integerSetting(env, 'WEBHOOK_CONCURRENCY', 64, 1, 10_000),
    targetConcurrency: integerSetting(env, 'WEBHOOK_TARGET_CONCURRENCY', 8, 1, 1000),
    attemptRetentionDays: integerSetting(env, 'WEBHOOK_ATTEMPT_RETENTION_DAYS', 30, 1, 3650),
  };
}

/** The injection token of the AppConfig. */
export const APP_CONFIG = Symbol('AppConfig');
