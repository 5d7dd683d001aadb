import { startTestApp, type TestApp } from '../support/test-app';
import { enableScim, PATCH_OP, scimClient, USER_SCHEMA } from '../support/scim';

const patch = (...operations: unknown[]) => ({ schemas: [PATCH_OP], Operations: operations });

describe('SCIM under concurrent PATCHes', () => {
  let api: TestApp;
  let scim: ReturnType<typeof scimClient>;

  beforeAll(async () => {
    api = await startTestApp();
    scim = scimClient(api, await enableScim(api));
  });

  afterAll(async () => {
    await api?.close();
  });

  it('loses no update of one user: every concurrent change lands', async () => {
    const user = await scim('POST', '/Users', {
      schemas: [USER_SCHEMA],
      userName: 'contended@example.com',
      emails: [{ value: 'contended@example.com', type: 'work', primary: true }],
    });
    const changes = 16;
    const responses = await Promise.all([
      ...Array.from({ length: changes - 2 }, (_, index) =>
        scim('PATCH', `/Users/${user.body.id}`, patch({ op: 'add', path: 'emails', value: [{ value: `alias${index}@example.com`, type: 'other' }] })),
      ),
      scim('PATCH', `/Users/${user.body.id}`, patch({ op: 'Replace', path: 'name.givenName', value: 'Given' })),
      scim('PATCH', `/Users/${user.body.id}`, patch({ op: 'replace', value: { 'name.familyName': 'Family', displayName: 'Both' } })),
    ]);
    expect(responses.filter((response) => response.status !== 200).map((response) => response.body)).toEqual([]);
    expect(responses.map((response) => response.status)).toEqual(Array(changes).fill(200));
    const final = await scim('GET', `/Users/${user.body.id}`);
    expect(final.body.emails).toHaveLength(1 + changes - 2);
    expect(final.body.name).toEqual({ givenName: 'Given', familyName: 'Family' });
    expect(final.body.displayName).toBe('Both');
    // One version per change: they applied one after another.
    expect(final.body.meta.version).toBe(`W/"${1 + changes}"`);
  });

  it('loses no member added to or removed from one group concurrently', async () => {
    const members = await Promise.all(
      Array.from({ length: 30 }, (_, index) => scim('POST', '/Users', { schemas: [USER_SCHEMA], userName: `member${index}@example.com` })),
    );
    const ids = members.map((member) => member.body.id as string);
    const group = await scim('POST', '/Groups', { displayName: 'Contended', members: ids.slice(20).map((value) => ({ value })) });
    const responses = await Promise.all([
      ...ids.slice(0, 20).map((value) => scim('PATCH', `/Groups/${group.body.id}`, patch({ op: 'add', path: 'members', value: [{ value }] }))),
      ...ids.slice(20, 25).map((value) => scim('PATCH', `/Groups/${group.body.id}`, patch({ op: 'remove', path: `members[value eq "${value}"]` }))),
      scim('PATCH', `/Groups/${group.body.id}`, patch({ op: 'replace', value: { displayName: 'Contended Renamed' } })),
    ]);
    expect(responses.map((response) => response.status)).toEqual(Array(26).fill(204));
    const final = await scim('GET', `/Groups/${group.body.id}`);
    expect(final.body.displayName).toBe('Contended Renamed');
    expect(final.body.members.map((member: { value: string }) => member.value).sort()).toEqual([...ids.slice(0, 20), ...ids.slice(25)].sort());
    expect(final.body.meta.version).toBe('W/"27"');
  });

  it('provisions one userName once when the same POST arrives concurrently', async () => {
    const responses = await Promise.all(Array.from({ length: 8 }, () => scim('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'twice@example.com' })));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, ...Array(7).fill(409)]);
  });
});
