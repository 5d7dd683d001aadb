import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { sha256Hex } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import {
  ApiTokenExistsQuery,
  CountUsersQuery,
  FindOrganizationQuery,
  FindUserQuery,
  MayReadAttachmentsQuery,
  type OrganizationSummary,
  type UserSummary,
} from '../../contracts/queries';
import { isMemberRole, roleAtLeast } from '../../domain/roles';
import { IdentityRepository } from '../../infrastructure/identity.repository';

@QueryHandler(FindUserQuery)
export class FindUserHandler implements IQueryHandler<FindUserQuery, UserSummary | null> {
  constructor(
    private readonly database: Database,
    private readonly repository: IdentityRepository,
  ) {}

  async execute({ by }: FindUserQuery): Promise<UserSummary | null> {
    const user = await this.repository.findUserSummary(this.database, by);
    return user ? { id: String(user.id), email: user.email, hasPassword: user.has_password } : null;
  }
}

@QueryHandler(CountUsersQuery)
export class CountUsersHandler implements IQueryHandler<CountUsersQuery, number> {
  constructor(
    private readonly database: Database,
    private readonly repository: IdentityRepository,
  ) {}

  execute(): Promise<number> {
    return this.repository.countUsers(this.database);
  }
}

@QueryHandler(FindOrganizationQuery)
export class FindOrganizationHandler implements IQueryHandler<FindOrganizationQuery, OrganizationSummary | null> {
  constructor(
    private readonly database: Database,
    private readonly repository: IdentityRepository,
  ) {}

  async execute({ idOrSlug }: FindOrganizationQuery): Promise<OrganizationSummary | null> {
    const organization = await this.repository.findOrganization(this.database, idOrSlug);
    return organization ? { id: String(organization.id), slug: organization.slug } : null;
  }
}

@QueryHandler(ApiTokenExistsQuery)
export class ApiTokenExistsHandler implements IQueryHandler<ApiTokenExistsQuery, boolean> {
  constructor(
    private readonly database: Database,
    private readonly repository: IdentityRepository,
  ) {}

  execute({ plaintext }: ApiTokenExistsQuery): Promise<boolean> {
    return this.repository.tokenHashExists(this.database, sha256Hex(plaintext));
  }
}

@QueryHandler(MayReadAttachmentsQuery)
export class MayReadAttachmentsHandler implements IQueryHandler<MayReadAttachmentsQuery, boolean> {
  constructor(
    private readonly database: Database,
    private readonly repository: IdentityRepository,
  ) {}

  async execute({ organizationId, caller }: MayReadAttachmentsQuery): Promise<boolean> {
    if (caller.isSuperuser) return true;
    if (!caller.userId || !caller.memberRole || !isMemberRole(caller.memberRole)) return false;
    const organization = await this.repository.findOrganization(this.database, organizationId);
    return organization !== undefined && roleAtLeast(caller.memberRole, organization.attachments_role);
  }
}
