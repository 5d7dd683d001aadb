import { expandScopes } from '@faultline/kernel';
import type { OrganizationAccess } from '@faultline/platform';
import type { ProjectRow } from '../infrastructure/projects.repository';
import { serializeProject, serializeProjectDetail } from './projects.serializers';

describe('project serialisers', () => {
  const organization: OrganizationAccess = {
    id: '1',
    slug: 'acme',
    name: 'Acme',
    plan: 'free',
    features: [],
    require2FA: false,
    dateCreated: new Date('2026-01-01T00:00:00Z'),
    role: 'owner',
    scopes: expandScopes(['project:admin', 'event:admin', 'org:read']),
  };
  const project: ProjectRow = {
    id: '7',
    organization_id: '1',
    slug: 'web',
    name: 'Web',
    platform: 'node',
    status: 'active',
    features: ['servicehooks'],
    first_event: null,
    date_created: new Date('2026-02-03T04:05:06.789Z'),
    is_bookmarked: false,
    is_member: true,
    teams: [{ id: '2', slug: 'acme', name: 'Acme' }],
    data_scrubber: true,
    data_scrubber_defaults: false,
    sensitive_fields: ['card'],
    safe_fields: [],
    scrub_ip_addresses: true,
    store_crash_reports: null,
  };

  it('starts the detail with every summary field, in the same order and with the same values', () => {
    const summary = serializeProject(project, organization);
    const detail = serializeProjectDetail(project, organization, 'http://127.0.0.1:9000');
    const summaryKeys = Object.keys(summary);
    expect(Object.keys(detail).slice(0, summaryKeys.length)).toEqual(summaryKeys);
    for (const key of summaryKeys) expect(detail[key as keyof typeof detail]).toEqual(summary[key as keyof typeof summary]);
    expect(detail).toMatchObject({ id: '7', dateCreated: '2026-02-03T04:05:06.789Z', status: 'active', isBookmarked: false });
  });
});
