import { EventRecorder, EventStore } from '@faultline/event-store';
import { ConcurrencyError, newUuid, sha256Hex } from '@faultline/kernel';
import { openTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import { Installation, installationStream } from '../domain';
import { ExternalIssuesRepository } from './external-issues.repository';
import { type InstallationRow, InstallationsRepository, stateOfRow } from './installations.repository';
import { type SentryAppRow, SentryAppsRepository } from './sentry-apps.repository';

const at = (minutes: number) => new Date(Date.parse('2026-11-22T12:00:00.000Z') + minutes * 60_000).toISOString();
const actor = { type: 'user' as const, id: '1', name: 'Jane' };

describe('installation and app repositories', () => {
  let db: TestDatabase;
  let store: EventStore;
  let installations: InstallationsRepository;
  const apps = new SentryAppsRepository();
  const links = new ExternalIssuesRepository();
  let organizationId: string;
  let app: SentryAppRow;

  beforeAll(async () => {
    db = await openTestDatabase();
    store = new EventStore(db.database);
    installations = new InstallationsRepository(store, new EventRecorder(store));
    [{ id: organizationId }] = await db.database.query<{ id: string }>(`INSERT INTO identity.organizations (slug, name) VALUES ('acme', 'Acme') RETURNING id`);
    organizationId = String(organizationId);
    app = await apps.insert(db.database, {
      uuid: newUuid(),
      slug: 'bridge',
      name: 'Bridge',
      ownerOrganizationId: organizationId,
      isInternal: false,
      webhookUrl: 'https://bridge.example/hooks',
      redirectUrl: null,
      verifyInstall: true,
      scopes: ['event:read'],
      events: ['issue'],
      isAlertable: false,
      schema: { elements: [] },
      allowedOrigins: [],
      webhookHeaders: [],
      overview: null,
      author: null,
      clientId: 'client-1',
      clientSecret: 'secret-1',
      createdBy: null,
    });
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  /** The table's row and a replay of the stream agree, field for field. */
  async function expectReplayMatchesTable(uuid: string): Promise<void> {
    const [row] = await db.database.query<InstallationRow>(`SELECT * FROM integrations.sentry_app_installations WHERE uuid = $1`, [uuid]);
    const history = await store.readStream(db.database, installationStream(uuid));
    const replayed = Installation.fromHistory(history as never);
    expect(stateOfRow(row)).toEqual(replayed.snapshot);
    expect(row.version).toBe(history.length);
  }

  it('keeps the read model equal to a replay of the stream through every transition', async () => {
    const installation = Installation.install({
      uuid: newUuid(),
      appId: String(app.id),
      organizationId,
      verifyInstall: true,
      grantCodeHash: sha256Hex('code'),
      scopes: ['event:read'],
      actor,
      at: at(0),
    });
    const uuid = installation.snapshot.uuid;
    const step = async (change: (loaded: Installation) => void) => {
      await db.database.transaction((tx) => installations.decide(tx, uuid, change));
      await expectReplayMatchesTable(uuid);
    };
    await db.database.transaction((tx) => installations.create(tx, installation));
    await expectReplayMatchesTable(uuid);
    await step((loaded) => loaded.exchangeGrant(sha256Hex('code'), { tokenId: '10', refreshTokenHash: 'r10', expiresAt: at(480) }, at(1)));
    await step((loaded) => loaded.verify(at(2)));
    await step((loaded) => loaded.followAppScopes([], false, at(2)));
    await step((loaded) => loaded.refresh('r10', { tokenId: '11', refreshTokenHash: 'r11', expiresAt: at(482) }, at(2)));
    await step((loaded) => loaded.uninstall(actor, at(3)));

    const view = await installations.find(db.database, uuid);
    expect(view).toMatchObject({ status: 'deleted', app_slug: 'bridge', organization_slug: 'acme', token_ids: [] });
    expect(await installations.findLive(db.database, String(app.id), organizationId)).toBeNull();
  });

  it('refuses a decision on a stale load whose retry conflicts too (optimistic concurrency) and keeps the table unchanged; decides a stale load again once', async () => {
    const installation = Installation.install({
      uuid: newUuid(),
      appId: String(app.id),
      organizationId,
      verifyInstall: true,
      grantCodeHash: 'h',
      scopes: ['event:read'],
      actor,
      at: at(0),
    });
    const uuid = installation.snapshot.uuid;
    await db.database.transaction((tx) => installations.create(tx, installation));
    const stale = (await installations.load(db.database, uuid)) as Installation;
    const refused = db.database.transaction(
      async (tx) => {
        // This transaction's id is older than the verify's: its events cannot follow the verify's in the feed.
        await tx.query('SELECT pg_current_xact_id()');
        await db.database.transaction((other) => installations.decide(other, uuid, (loaded) => loaded.verify(at(1))));
        await installations.decide(tx, uuid, (loaded) => loaded.uninstall(actor, at(2)), { loaded: stale });
      },
      { retries: 0 },
    );
    await expect(refused).rejects.toBeInstanceOf(ConcurrencyError);
    expect((await installations.find(db.database, uuid))?.status).toBe('installed');
    await expectReplayMatchesTable(uuid);

    // A newer transaction's retry reads the stream again and decides on what it holds now.
    const staleAgain = (await installations.load(db.database, uuid)) as Installation;
    await db.database.transaction((tx) => installations.decide(tx, uuid, (loaded) => loaded.followAppScopes([], false, at(3))));
    const decided = await db.database.transaction(
      (tx) => installations.decide(tx, uuid, (loaded) => loaded.mintInternalToken('20', at(4)), { loaded: staleAgain }),
      {
        retries: 0,
      },
    );
    expect(decided?.aggregate.snapshot).toMatchObject({ scopes: [], tokenIds: ['20'] });
    expect((await store.readStream(db.database, installationStream(uuid))).map((event) => event.version)).toEqual([1, 2, 3, 4]);
    await expectReplayMatchesTable(uuid);
  });

  it('allows one live installation per app and organization', async () => {
    const live = await installations.findLive(db.database, String(app.id), organizationId);
    expect(live?.status).toBe('installed');
    const another = Installation.install({
      uuid: newUuid(),
      appId: String(app.id),
      organizationId,
      verifyInstall: false,
      grantCodeHash: 'h2',
      scopes: ['event:read'],
      actor,
      at: at(5),
    });
    await expect(db.database.transaction((tx) => installations.create(tx, another))).rejects.toThrow();
  });

  it('finds apps by slug and client id, lists them by owner and status, and applies partial changes', async () => {
    expect((await apps.findByClientId(db.database, 'client-1'))?.slug).toBe('bridge');
    expect(await apps.slugTaken(db.database, 'bridge')).toBe(true);
    await apps.update(db.database, String(app.id), { status: 'published', events: ['comment', 'issue'], schema: { elements: [{ type: 'issue-link' }] } });
    const updated = (await apps.findBySlug(db.database, 'bridge')) as SentryAppRow;
    expect(updated).toMatchObject({
      status: 'published',
      events: ['comment', 'issue'],
      schema: { elements: [{ type: 'issue-link' }] },
      name: 'Bridge',
      owner_slug: 'acme',
    });
    expect((await apps.listByStatus(db.database, 'published', 0, 10)).map((row) => row.slug)).toEqual(['bridge']);
    expect((await apps.listOwned(db.database, organizationId, 0, 10)).map((row) => row.slug)).toEqual(['bridge']);
  });

  it('keeps one external issue link per issue and app', async () => {
    const [{ id: projectId }] = await db.database.query<{ id: string }>(
      `INSERT INTO projects.projects (organization_id, slug, name) VALUES ($1, 'web', 'Web') RETURNING id`,
      [organizationId],
    );
    const [{ id: issueId }] = await db.database.query<{ id: string }>(
      `INSERT INTO issues.issues (project_id, fingerprint_hash, short_id, title, level, platform, first_seen, last_seen) VALUES ($1, 'f', 'WEB-1', 'Boom', 'error', 'node', now(), now()) RETURNING id`,
      [projectId],
    );
    const live = (await installations.findLive(db.database, String(app.id), organizationId))!;
    const link = {
      appId: String(app.id),
      installationUuid: live.uuid,
      organizationId,
      issueId: String(issueId),
      webUrl: 'https://t.example/1',
      project: 'OPS',
      identifier: '1',
    };
    const first = await links.upsert(db.database, link);
    const second = await links.upsert(db.database, { ...link, identifier: '2', webUrl: 'https://t.example/2' });
    expect(second.id).toBe(first.id);
    expect((await links.listForIssue(db.database, organizationId, String(issueId))).map((row) => row.identifier)).toEqual(['2']);
    expect(await links.find(db.database, newUuid(), String(first.id))).toBeNull();
    await links.delete(db.database, String(first.id));
    expect(await links.listForInstallation(db.database, live.uuid, 0, 10)).toEqual([]);
  });
});
