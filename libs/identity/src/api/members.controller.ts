import { Controller, Get, NotFoundException, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CurrentOrganization, Database, type OrganizationAccess, Paginate, Pagination, RequireScopes } from '@faultline/platform';
import { IdentityRepository } from '../infrastructure/identity.repository';
import { serializeMember } from './identity.serializers';

@ApiTags('Members')
@ApiBearerAuth()
@Controller('api/0/organizations/:organization_id_or_slug/members')
export class MembersController {
  constructor(
    private readonly database: Database,
    private readonly repository: IdentityRepository,
  ) {}

  @Get()
  @RequireScopes('member:read')
  async list(@CurrentOrganization() organization: OrganizationAccess, @Paginate() page: Pagination) {
    const rows = await this.repository.listMembers(this.database, organization.id, page.offset, page.fetchLimit);
    return page.respond(rows).map(serializeMember);
  }

  @Get(':member_id')
  @RequireScopes('member:read')
  async detail(@CurrentOrganization() organization: OrganizationAccess, @Param('member_id') memberId: string) {
    const member = await this.repository.findMember(this.database, organization.id, memberId);
    if (!member) throw new NotFoundException();
    return serializeMember(member);
  }
}
