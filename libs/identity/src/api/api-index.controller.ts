import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Database, type Principal, RequireScopes } from '@faultline/platform';
import { IdentityRepository } from '../infrastructure/identity.repository';

/** Sentry's API root: who the token acts for and what it may do (what `sentry-cli info` shows). */
@ApiTags('Authentication')
@Controller('api/0')
export class ApiIndexController {
  constructor(
    private readonly database: Database,
    private readonly identity: IdentityRepository,
  ) {}

  @Get()
  @RequireScopes()
  async index(@CurrentPrincipal() principal: Principal) {
    const user = principal.userId ? await this.identity.findUser(this.database, principal.userId) : undefined;
    return {
      version: '0',
      auth: { scopes: [...principal.scopes].sort() },
      user: user ? { id: String(user.id), email: user.email, name: user.name, username: user.email } : null,
    };
  }
}
