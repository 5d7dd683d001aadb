import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { EventRecorder, EventStoreModule } from '@faultline/event-store';
import { IdentityEventTypes, IdentityModule } from '@faultline/identity';
import type { FastifyInstance } from 'fastify';
import { AuthProviderController } from './api/auth-provider.controller';
import { ScimAuthGuard } from './api/scim-auth.guard';
import { ScimDiscoveryController } from './api/scim-discovery.controller';
import { ScimGroupsController } from './api/scim-groups.controller';
import { registerScimHttp } from './api/scim-http';
import { ScimUsersController } from './api/scim-users.controller';
import { ConfigureAuthProviderHandler } from './application/commands/configure-auth-provider/configure-auth-provider.handler';
import { DeleteAuthProviderHandler } from './application/commands/delete-auth-provider/delete-auth-provider.handler';
import { AuthProviderRepository } from './infrastructure/auth-provider.repository';
import { PageBoundaries } from './infrastructure/page-boundaries';
import { ScimReadRepository } from './infrastructure/scim-read.repository';
import { ScimTokenCache } from './infrastructure/scim-token-cache';

/** SCIM 2.0 provisioning of members and teams by an organization's identity provider, and its SAML provider settings. */
@Module({
  imports: [CqrsModule, EventStoreModule, IdentityModule],
  controllers: [AuthProviderController, ScimUsersController, ScimGroupsController, ScimDiscoveryController],
  providers: [
    AuthProviderRepository,
    ScimReadRepository,
    PageBoundaries,
    ScimTokenCache,
    ScimAuthGuard,
    ConfigureAuthProviderHandler,
    DeleteAuthProviderHandler,
  ],
})
export class ScimModule implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly recorder: EventRecorder,
    private readonly tokens: ScimTokenCache,
  ) {}

  onModuleInit(): void {
    // A plan change made in this process reaches SCIM tokens at once, not after the cache's TTL.
    this.recorder.onCommitted((events) => {
      if (events.some((event) => event.type === IdentityEventTypes.OrganizationUpdated)) this.tokens.clear();
    });
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    // Absent in application contexts without HTTP (the CLI).
    if (fastify) registerScimHttp(fastify);
  }
}
