import { APP_CONFIG, type AppConfig, ConfigError, integerSetting } from '@faultline/platform';
import type { BundleLimits } from './artifact-bundle-reader';

export const RELEASES_CONFIG = Symbol('RELEASES_CONFIG');

export interface ReleasesConfig {
  /** Largest artifact bundle sentry-cli may upload (its `maxFileSize`). */
  readonly maxBundleBytes: number;
  readonly chunkBytes: number;
  /** Largest upload request: a multiple of the chunk size. */
  readonly maxRequestBytes: number;
  /** Chunks in one upload request (sentry-cli's `chunksPerRequest`): with each at most `chunkBytes` inflated, a request inflates to at most `maxRequestBytes`. */
  readonly chunksPerRequest: number;
  /** Uploaded bytes (chunks waiting for assembly, and files) one organization may keep stored. */
  readonly organizationStorageMaxBytes: number;
  readonly bundle: BundleLimits;
  readonly sourceMaps: SourceMapLimits;
  readonly sessions: SessionLimits;
}

/** Release health's budgets per project and hour: what a tenant's sessions can make us keep. */
export interface SessionLimits {
  /** Release and environment pairs counted; sessions of further pairs are dropped. */
  readonly maxReleasesPerHour: number;
  /** Distinct ids kept (users in each status, errored session ids); past it, distinct counts are a lower bound. */
  readonly maxDistinctIdsPerHour: number;
}

export interface SourceMapLimits {
  /** Threads that parse source maps and resolve frames through them. */
  readonly workers: number;
  /** Each thread's heap: a map that would take more ends its thread, not the process. */
  readonly workerHeapMb: number;
  /** Parsed source maps each thread keeps, weighed by what they hold decoded. */
  readonly cacheBytes: number;
  /** What the maps parsed for one event may decode to; a map over it is refused before decoding. */
  readonly maxDecodedBytes: number;
  /** Map bytes read for one event: two of the largest files. */
  readonly maxReadBytesPerEvent: number;
}

const MIB = 1024 * 1024;

/** The releases context's limits, from the environment the application was configured with (see docs/configuration.md). */
export function releasesConfig(env: Readonly<Record<string, string | undefined>>): ReleasesConfig {
  const chunkBytes = 8 * MIB;
  const maxFileBytes = integerSetting(env, 'ARTIFACT_FILE_MAX_BYTES', 32 * MIB, 1024, 512 * MIB);
  const chunksPerRequest = 4;
  return {
    maxBundleBytes: integerSetting(env, 'ARTIFACT_BUNDLE_MAX_BYTES', 64 * MIB, MIB, 1024 * MIB),
    chunkBytes,
    maxRequestBytes: chunksPerRequest * chunkBytes,
    chunksPerRequest,
    organizationStorageMaxBytes: integerSetting(env, 'ORGANIZATION_STORAGE_MAX_BYTES', 5 * 1024 * MIB, MIB, Number.MAX_SAFE_INTEGER),
    bundle: {
      maxFiles: integerSetting(env, 'ARTIFACT_BUNDLE_MAX_FILES', 10_000, 1, 1_000_000),
      maxFileBytes,
      maxTotalBytes: integerSetting(env, 'ARTIFACT_BUNDLE_MAX_UNCOMPRESSED_BYTES', 256 * MIB, MIB, 1024 * MIB),
    },
    sourceMaps: sourceMapLimits(env, maxFileBytes),
    sessions: {
      maxReleasesPerHour: integerSetting(env, 'SESSIONS_MAX_RELEASES_PER_HOUR', 100, 1, 100_000),
      maxDistinctIdsPerHour: integerSetting(env, 'SESSIONS_MAX_DISTINCT_IDS_PER_HOUR', 10_000, 0, 10_000_000),
    },
  };
}

function sourceMapLimits(env: Readonly<Record<string, string | undefined>>, maxFileBytes: number): SourceMapLimits {
  const limits = {
    workers: integerSetting(env, 'SOURCE_MAP_WORKERS', 1, 1, 64),
    workerHeapMb: integerSetting(env, 'SOURCE_MAP_WORKER_HEAP_MB', 1024, 64, 64 * 1024),
    cacheBytes: integerSetting(env, 'SOURCE_MAP_CACHE_BYTES', 256 * MIB, 0, 16 * 1024 * MIB),
    maxDecodedBytes: integerSetting(env, 'SOURCE_MAP_MAX_DECODED_BYTES', 256 * MIB, MIB, 16 * 1024 * MIB),
    maxReadBytesPerEvent: 2 * maxFileBytes,
  };
  // The cache and one event's maps share the thread's heap, with as much again for parsing them.
  if (limits.cacheBytes + 2 * limits.maxDecodedBytes > limits.workerHeapMb * MIB) {
    throw new ConfigError(
      `SOURCE_MAP_WORKER_HEAP_MB (${limits.workerHeapMb}) must hold SOURCE_MAP_CACHE_BYTES plus twice SOURCE_MAP_MAX_DECODED_BYTES (${Math.ceil((limits.cacheBytes + 2 * limits.maxDecodedBytes) / MIB)} MiB)`,
    );
  }
  return limits;
}

export const releasesConfigProvider = {
  provide: RELEASES_CONFIG,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig) => releasesConfig(config.environment),
};
