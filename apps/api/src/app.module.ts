import { type DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { EventStoreModule } from '@faultline/event-store';
import { IdentityModule } from '@faultline/identity';
import { IngestModule } from '@faultline/ingest';
import { IssuesModule } from '@faultline/issues';
import { type AppConfig, AuthGuard, PlatformModule } from '@faultline/platform';
import { ProjectsModule } from '@faultline/projects';
import { WebhooksModule } from '@faultline/webhooks';
import { ScimModule } from '@faultline/scim';
import { MIGRATIONS } from '../../../migrations';
import { BootstrapService } from './bootstrap.service';

/** Wires the bounded contexts into one application. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, options: { bootstrap?: boolean } = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot({ config, migrations: MIGRATIONS }),
        CqrsModule.forRoot(),
        EventStoreModule,
        IdentityModule,
        ProjectsModule,
        IssuesModule,
        IngestModule,
        WebhooksModule,
        ScimModule,
      ],
      providers: [{ provide: APP_GUARD, useClass: AuthGuard }, ...(options.bootstrap === false ? [] : [BootstrapService])],
    };
  }
}
