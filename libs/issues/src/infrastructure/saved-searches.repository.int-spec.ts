import { CommandBus } from '@nestjs/cqrs';
import { Database } from '@faultline/platform';
import { startTestApp, type TestApp } from '../../../../test/support/test-app';
import { CreateSavedSearchCommand } from '../application/commands/create-saved-search/create-saved-search.command';
import { UpdateSavedSearchCommand } from '../application/commands/update-saved-search/update-saved-search.command';
import type { SavedSearchActor } from '../domain';
import { SavedSearchesRepository } from './saved-searches.repository';

/** Saved searches against PostgreSQL: scopes of visibility and duplicates, and budgets that hold under concurrent saves. */
describe('SavedSearchesRepository', () => {
  let api: TestApp;
  let searches: SavedSearchesRepository;
  let commands: CommandBus;
  const admin: SavedSearchActor = { userId: '1', canWriteOrganization: true };
  const member: SavedSearchActor = { userId: '2', canWriteOrganization: false };
  const save = (organizationId: string, actor: SavedSearchActor, query: string, visibility: 'owner' | 'organization' = 'owner') =>
    commands.execute(new CreateSavedSearchCommand(organizationId, actor, { name: query, query, visibility }));

  beforeAll(async () => {
    api = await startTestApp();
    searches = api.app.get(SavedSearchesRepository);
    commands = api.app.get(CommandBus);
  }, 60_000);

  afterAll(async () => {
    await api?.close();
  });

  it('lists the organization’s shared searches and the user’s own, by name, never another organization’s', async () => {
    await save('901', admin, 'is:unresolved', 'organization');
    await save('901', admin, 'bookmarks:me');
    await save('901', member, 'assigned:me');
    await save('902', admin, 'level:fatal', 'organization');
    const names = async (organizationId: string, userId?: string) => (await searches.visibleTo(organizationId, userId)).map((row) => row.query);
    expect(await names('901', '1')).toEqual(['bookmarks:me', 'is:unresolved']);
    expect(await names('901', '2')).toEqual(['assigned:me', 'is:unresolved']);
    expect(await names('901')).toEqual(['is:unresolved']);
    expect(await names('902', '1')).toEqual(['level:fatal']);
    const [shared] = await searches.visibleTo('902', '1');
    expect(await searches.find(api.app.get(Database), '901', shared.id)).toBeNull();
  });

  it('checks duplicates within a scope: the same query may be one user’s and another’s, but not twice the same owner’s', async () => {
    await expect(save('901', member, 'bookmarks:me')).resolves.toMatchObject({ owner_id: '2', visibility: 'owner' });
    await expect(save('901', member, 'bookmarks:me')).rejects.toThrow('Query bookmarks:me already exists');
    const [own] = (await searches.visibleTo('901', '2')).filter((row) => row.query === 'assigned:me');
    await expect(commands.execute(new UpdateSavedSearchCommand('901', own.id, member, { query: 'bookmarks:me' }))).rejects.toThrow('already exists');
    await expect(commands.execute(new UpdateSavedSearchCommand('901', own.id, admin, { name: 'Taken over' }))).rejects.toThrow(
      'The requested resource does not exist',
    );
  });

  it('keeps each budget exactly under concurrent saves', async () => {
    const attempts = Array.from({ length: 110 }, (_, index) =>
      save('903', admin, `message:owner-${index}`).then(
        () => true,
        () => false,
      ),
    );
    const shared = Array.from({ length: 110 }, (_, index) =>
      save('903', admin, `message:shared-${index}`, 'organization').then(
        () => true,
        () => false,
      ),
    );
    const outcomes = await Promise.all([...attempts, ...shared]);
    expect(outcomes.filter(Boolean)).toHaveLength(200);
    expect(await searches.countOf(api.app.get(Database), '903', 'owner', '1')).toBe(100);
    expect(await searches.countOf(api.app.get(Database), '903', 'organization', null)).toBe(100);
    await expect(save('903', member, 'message:member')).resolves.toMatchObject({ owner_id: '2' });
  });
});
