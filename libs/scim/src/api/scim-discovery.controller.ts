import { Controller, Get, Inject, Param, UseFilters, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig, Public } from '@faultline/platform';
import { GROUP_SCHEMA_DEFINITION, RESOURCE_TYPES, serviceProviderConfig, USER_SCHEMA_DEFINITION } from '../domain/scim-discovery';
import { ScimError } from '../domain/scim-error';
import { CurrentScimOrganization, ScimAuthGuard, type ScimOrganization } from './scim-auth.guard';
import { ScimExceptionFilter } from './scim-exception.filter';
import { listResponse } from './scim.serializers';

const SCHEMAS = [USER_SCHEMA_DEFINITION, GROUP_SCHEMA_DEFINITION];

/** RFC 7644 §4 discovery: what this SCIM service supports, for providers and validators. */
@ApiTags('SCIM')
@ApiBearerAuth()
@Public()
@UseGuards(ScimAuthGuard)
@UseFilters(ScimExceptionFilter)
@Controller('api/0')
export class ScimDiscoveryController {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Get('organizations/:organization_id_or_slug/scim/v2/ServiceProviderConfig')
  serviceProviderConfig(@CurrentScimOrganization() organization: ScimOrganization) {
    const base = this.base(organization);
    return {
      ...serviceProviderConfig(`${this.config.publicUrl}/api/docs`),
      meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
    };
  }

  @Get('organizations/:organization_id_or_slug/scim/v2/ResourceTypes')
  resourceTypes(@CurrentScimOrganization() organization: ScimOrganization) {
    const resources = RESOURCE_TYPES.map((type) => this.located(type, `${this.base(organization)}/ResourceTypes/${type.id}`));
    return listResponse(resources, resources.length, 1);
  }

  @Get('organizations/:organization_id_or_slug/scim/v2/ResourceTypes/:id')
  resourceType(@CurrentScimOrganization() organization: ScimOrganization, @Param('id') id: string) {
    const type = RESOURCE_TYPES.find((candidate) => candidate.id === id);
    if (!type) throw ScimError.notFound();
    return this.located(type, `${this.base(organization)}/ResourceTypes/${id}`);
  }

  @Get('organizations/:organization_id_or_slug/scim/v2/Schemas')
  schemas(@CurrentScimOrganization() organization: ScimOrganization) {
    const resources = SCHEMAS.map((schema) => this.located(schema, `${this.base(organization)}/Schemas/${schema.id}`));
    return listResponse(resources, resources.length, 1);
  }

  @Get('organizations/:organization_id_or_slug/scim/v2/Schemas/:id')
  schema(@CurrentScimOrganization() organization: ScimOrganization, @Param('id') id: string) {
    const schema = SCHEMAS.find((candidate) => candidate.id === id);
    if (!schema) throw ScimError.notFound();
    return this.located(schema, `${this.base(organization)}/Schemas/${id}`);
  }

  private base(organization: ScimOrganization): string {
    return `${this.config.publicUrl}/api/0/organizations/${organization.slug}/scim/v2`;
  }

  private located(resource: Record<string, unknown>, location: string) {
    return { ...resource, meta: { ...(resource.meta as object), location } };
  }
}
