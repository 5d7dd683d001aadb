import { type DynamicModule, Global, Inject, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { CLOCK, type Clock, systemClock } from '@faultline/kernel';
import { DataSource, type MigrationInterface } from 'typeorm';
import { APP_CONFIG, type AppConfig } from './config';
import { type EmbeddedDatabase, openEmbeddedDatabase } from '@faultline/embedded-postgres';
import { createDataSource, Database, dataSourceOptionsFrom, poolStats, runMigrations } from './database';
import { InFlightRequests } from './lifecycle/in-flight';
import { RetentionSchedule } from './lifecycle/retention';
import { WorkerHost } from './lifecycle/worker-host';
import { HealthController } from './observability/health.controller';
import { Metrics } from './observability/metrics';

export interface PlatformOptions {
  readonly config: AppConfig;
  readonly migrations: ReadonlyArray<new () => MigrationInterface>;
  /** The application's clock; the system clock unless a test supplies one it controls. */
  readonly clock?: Clock;
}

/** How long shutdown waits for running request handlers before closing the database anyway. */
const SHUTDOWN_GRACE_MS = 10_000;

/** The embedded PostgreSQL server this process runs; null with DATABASE_URL. */
const EMBEDDED_DATABASE = Symbol('EmbeddedDatabase');

class DatabaseLifecycle implements OnApplicationShutdown {
  private readonly logger = new Logger('Shutdown');

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(InFlightRequests) private readonly inFlight: InFlightRequests,
    @Inject(EMBEDDED_DATABASE) private readonly embedded: EmbeddedDatabase | null,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    if (!(await this.quiet(performance.now() + SHUTDOWN_GRACE_MS))) {
      this.logger.warn(`closing the database with ${this.inFlight.size} request handler(s) still running`);
    }
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await this.embedded?.close();
  }

  /**
   * Waits until no handler runs and no connection is in use, twice in a row: a request whose
   * client hung up may still be between its guard and its handler.
   */
  private async quiet(deadline: number): Promise<boolean> {
    let calm = 0;
    while (performance.now() < deadline) {
      const pool = poolStats(this.dataSource);
      const busy = this.inFlight.size > 0 || (pool !== undefined && (pool.waiting > 0 || pool.idle < pool.total));
      calm = busy ? 0 : calm + 1;
      if (calm >= 2) return true;
      if (this.inFlight.size > 0) await this.inFlight.drained(Math.max(0, deadline - performance.now()));
      else await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return false;
  }
}

/** Configuration, database (migrated on start), clock, metrics, health, the worker host and the retention schedule. */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(options: PlatformOptions): DynamicModule {
    const logger = new Logger('Database');
    return {
      module: PlatformModule,
      controllers: [HealthController],
      providers: [
        { provide: APP_CONFIG, useValue: options.config },
        { provide: CLOCK, useValue: options.clock ?? systemClock },
        {
          provide: EMBEDDED_DATABASE,
          useFactory: async () =>
            options.config.databaseUrl
              ? null
              : openEmbeddedDatabase(options.config.dataDir, {
                  poolSize: options.config.databasePoolSize,
                  log: (message) => logger.warn(message),
                }),
        },
        {
          provide: DataSource,
          inject: [EMBEDDED_DATABASE],
          useFactory: async (embedded: EmbeddedDatabase | null) => {
            const url = options.config.databaseUrl ?? embedded!.url;
            try {
              const dataSource = await createDataSource(dataSourceOptionsFrom(options.config, url, options.migrations));
              await dataSource.initialize();
              const applied = await runMigrations(dataSource);
              if (applied.length) logger.log(`applied migrations: ${applied.join(', ')}`);
              return dataSource;
            } catch (error) {
              await embedded?.close();
              throw error;
            }
          },
        },
        {
          provide: Database,
          inject: [DataSource],
          useFactory: (dataSource: DataSource) => new Database(dataSource, (error) => logger.error(`after-commit callback failed: ${String(error)}`)),
        },
        { provide: Metrics, inject: [DataSource], useFactory: (dataSource: DataSource) => new Metrics(dataSource) },
        {
          // Counts every route's handler from Fastify (no Nest interceptor): built before Nest registers its routes.
          provide: InFlightRequests,
          inject: [HttpAdapterHost],
          useFactory: (host: HttpAdapterHost) => {
            const inFlight = new InFlightRequests();
            const server: unknown = host.httpAdapter?.getInstance();
            if (server && typeof (server as { addHook?: unknown }).addHook === 'function') inFlight.countRouteHandlers(server as never);
            return inFlight;
          },
        },
        DatabaseLifecycle,
        WorkerHost,
        RetentionSchedule,
      ],
      exports: [APP_CONFIG, CLOCK, DataSource, Database, Metrics, WorkerHost, RetentionSchedule],
    };
  }
}
