import { BadRequestException, Controller, Get, NotFoundException, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentOrganization, type OrganizationAccess, Paginate, Pagination, RequireScopes } from '@faultline/platform';
import {
  ISSUE_TAG_VALUE_SORTS,
  IssueReadModel,
  type IssueRow,
  type IssueTagKeyRow,
  type IssueTagValueRow,
  type IssueTagValueSort,
} from '../infrastructure/issue-read-model.repository';
import { serializeIssueTagKey, serializeTagValue } from './issues.serializers';

const DEFAULT_TOP_VALUES = 10;
const MAX_TOP_VALUES = 100;

/**
 * An issue's tags as Sentry's group tag endpoints answer them, from the rollup ingestion keeps
 * per issue: its keys with their most frequent values, one key, and a key's values. Counts are
 * over all the issue's events; an `environment` parameter does not narrow them.
 */
@ApiTags('Events')
@ApiBearerAuth()
@Controller('api/0')
export class IssueTagsController {
  constructor(private readonly readModel: IssueReadModel) {}

  @Get('organizations/:organization_id_or_slug/issues/:issue_id/tags')
  @RequireScopes('event:read')
  @ApiQuery({ name: 'key', required: false, type: [String], description: 'Only these keys (repeat the parameter).' })
  @ApiQuery({ name: 'limit', required: false, description: `Top values per key (default ${DEFAULT_TOP_VALUES}, at most ${MAX_TOP_VALUES}).` })
  async tags(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('issue_id') issueId: string,
    @Query('key') key?: string | string[],
    @Query('limit') limit?: string,
  ) {
    const issue = await this.issue(organization, issueId);
    const keys = await this.readModel.tagKeys(issue.id, key === undefined ? undefined : [key].flat());
    return this.withTopValues(issue, keys, topValuesLimit(limit));
  }

  @Get('organizations/:organization_id_or_slug/issues/:issue_id/tags/:key')
  @RequireScopes('event:read')
  async tag(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('issue_id') issueId: string,
    @Param('key') key: string,
    @Query('limit') limit?: string,
  ) {
    const issue = await this.issue(organization, issueId);
    const [found] = await this.withTopValues(issue, await this.readModel.tagKeys(issue.id, [key]), topValuesLimit(limit));
    if (!found) throw new NotFoundException();
    return found;
  }

  @Get('organizations/:organization_id_or_slug/issues/:issue_id/tags/:key/values')
  @RequireScopes('event:read')
  @ApiQuery({
    name: 'sort',
    required: false,
    enum: ['date', 'age', 'count', 'id'],
    description: 'Newest first (date, and id, the default), first seen newest first (age) or most frequent first (count).',
  })
  async values(
    @CurrentOrganization() organization: OrganizationAccess,
    @Param('issue_id') issueId: string,
    @Param('key') key: string,
    @Paginate() page: Pagination,
    @Query('sort') sort?: string,
  ) {
    const order = tagValueSort(sort);
    const issue = await this.issue(organization, issueId);
    if (!(await this.readModel.hasTagKey(issue.id, key))) throw new NotFoundException();
    const rows = await this.readModel.tagValues(issue.id, key, order, page.offset, page.fetchLimit);
    return page.respond(rows).map(serializeTagValue);
  }

  private async withTopValues(issue: IssueRow, keys: IssueTagKeyRow[], limit: number) {
    const values = await this.readModel.topTagValues(
      issue.id,
      keys.map((row) => row.key),
      limit,
    );
    const byKey = new Map<string, IssueTagValueRow[]>();
    for (const value of values) {
      const list = byKey.get(value.key);
      if (list) list.push(value);
      else byKey.set(value.key, [value]);
    }
    return keys.map((row) => ({ ...serializeIssueTagKey(row), topValues: (byKey.get(row.key) ?? []).map(serializeTagValue) }));
  }

  private issue(organization: OrganizationAccess, issueId: string): Promise<IssueRow> {
    return this.readModel.require(organization.id, issueId);
  }
}

function topValuesLimit(value: string | undefined): number {
  if (value === undefined) return DEFAULT_TOP_VALUES;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_TOP_VALUES) {
    throw new BadRequestException({ detail: `limit must be an integer from 1 to ${MAX_TOP_VALUES}.` });
  }
  return limit;
}

/** Sentry's `sort` of tag values, always descending (a leading `-` says so again); `-id` when not given. */
function tagValueSort(value: string | undefined): IssueTagValueSort {
  const sort = (value || '-id').replace(/^-/, '');
  if (!Object.hasOwn(ISSUE_TAG_VALUE_SORTS, sort)) throw new BadRequestException({ detail: 'Invalid sort: use date, age, count or id.' });
  return sort as IssueTagValueSort;
}
