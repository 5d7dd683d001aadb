import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Database, type Principal, RequireScopes } from '@faultline/platform';

/** Sentry's API root: who the token acts for and what it may do (what `sentry-cli info` shows). */
@ApiTags('Authentication')
@Controller('api/0')
export class ApiIndexController {
  constructor(private readonly database: Database) {}

  @Get()
  @RequireScopes()
  async index(@CurrentPrincipal() principal: Principal) {
    const [user] = principal.userId
      ? await this.database.query<{ id: string; email: string; name: string }>(`SELECT id::text, email, name FROM users WHERE id = $1`, [principal.userId])
      : [];
    return {
      version: '0',
      auth: { scopes: [...principal.scopes].sort() },
      user: user ? { id: user.id, email: user.email, name: user.name, username: user.email } : null,
    };
  }
}
