import { type DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { EventStoreModule } from '@faultline/event-store';
import { IdentityModule } from '@faultline/identity';
import { IngestModule } from '@faultline/ingest';
import { IntegrationsModule } from '@faultline/integrations';
import { IssuesModule } from '@faultline/issues';
import type { Clock } from '@faultline/kernel';
import { type AppConfig, AuthGuard, type MigrationClass, PlatformModule } from '@faultline/platform';
import { ProjectsModule } from '@faultline/projects';
import { WebhooksModule } from '@faultline/webhooks';
import { ScimModule } from '@faultline/scim';
import { AlertsModule } from '@faultline/alerts';
import { MonitorsModule } from '@faultline/monitors';
import { ReleasesModule } from '@faultline/releases';
import { NotificationsModule } from '@faultline/notifications';
import { MIGRATIONS } from '../../../migrations';
import { BootstrapService } from './bootstrap.service';
import { type LoadedModule, loadModules } from './extension-modules/module-loader';

/** The core migrations, then the extension modules' (TypeORM runs them in timestamp order). */
export function applicationMigrations(modules: readonly LoadedModule[]): MigrationClass[] {
  return [...MIGRATIONS, ...modules.flatMap((module) => module.migrations)];
}

/**
 * Wires the bounded contexts into one application, then the extension modules the configuration
 * lists (loaded here unless the caller already did), so their routes and workers are part of it.
 */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, options: { bootstrap?: boolean; modules?: readonly LoadedModule[]; clock?: Clock } = {}): DynamicModule {
    const modules = options.modules ?? loadModules(config, { coreMigrations: MIGRATIONS });
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot({ config, migrations: applicationMigrations(modules), clock: options.clock }),
        CqrsModule.forRoot(),
        EventStoreModule,
        IdentityModule,
        ProjectsModule,
        IssuesModule,
        IngestModule,
        WebhooksModule,
        ScimModule,
        IntegrationsModule,
        NotificationsModule,
        AlertsModule,
        MonitorsModule,
        ReleasesModule,
        ...modules.map((module) => module.nestModule),
      ],
      providers: [{ provide: APP_GUARD, useClass: AuthGuard }, ...(options.bootstrap === false ? [] : [BootstrapService])],
    };
  }
}
