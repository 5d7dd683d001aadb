import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { EventRecorder, EventStoreModule } from '@faultline/event-store';
import { AuthProviderEventTypes, IdentityEventTypes, IdentityModule } from '@faultline/identity';
import type { FastifyInstance } from 'fastify';
import { ScimAuthGuard } from './api/scim-auth.guard';
import { ScimDiscoveryController } from './api/scim-discovery.controller';
import { ScimGroupsController } from './api/scim-groups.controller';
import { registerScimHttp } from './api/scim-http';
import { ScimUsersController } from './api/scim-users.controller';
import { PageBoundaries } from './infrastructure/page-boundaries';
import { ScimReadRepository } from './infrastructure/scim-read.repository';
import { ScimTokenCache } from './infrastructure/scim-token-cache';

/** SCIM 2.0 provisioning of members and teams by an organization's identity provider (whose settings identity owns). */
@Module({
  imports: [CqrsModule, EventStoreModule, IdentityModule],
  controllers: [ScimUsersController, ScimGroupsController, ScimDiscoveryController],
  providers: [ScimReadRepository, PageBoundaries, ScimTokenCache, ScimAuthGuard],
})
export class ScimModule implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly recorder: EventRecorder,
    private readonly tokens: ScimTokenCache,
  ) {}

  onModuleInit(): void {
    // A plan or provider change made in this process reaches SCIM tokens at once, not after the cache's TTL.
    const changesTokens = new Set<string>([IdentityEventTypes.OrganizationUpdated, ...Object.values(AuthProviderEventTypes)]);
    this.recorder.onCommitted((events) => {
      if (events.some((event) => changesTokens.has(event.type))) this.tokens.clear();
    });
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    // Absent in application contexts without HTTP (the CLI).
    if (fastify) registerScimHttp(fastify);
  }
}
