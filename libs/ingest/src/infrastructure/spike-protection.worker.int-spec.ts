import { EventRecorder, EventStore } from '@faultline/event-store';
import { FixedClock } from '@faultline/kernel';
import { openTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import { IngestEventTypes } from '../domain';
import { OrganizationLimitsCache } from './organization-limits.cache';
import { rateLimitsConfig } from './rate-limits-config';
import { RateLimitsRepository } from './rate-limits.repository';
import { SpikeProtectionWorker } from './spike-protection.worker';

const ORGANIZATIONS = 40;
const HOUR_MS = 3_600_000;

/** Spike protection on a real database: several workers at once, one FixedClock, each spike begun and told once. */
describe('SpikeProtectionWorker', () => {
  let db: TestDatabase;
  const clock = new FixedClock(new Date('2026-11-22T12:20:00.000Z'));
  const config = rateLimitsConfig({ SPIKE_PROTECTION_FLOOR: '100', SPIKE_PROTECTION_MULTIPLIER: '5', SPIKE_PROTECTION_EVALUATION_SECONDS: '60' });
  const repository = new RateLimitsRepository();
  let workers: SpikeProtectionWorker[];
  let organizations: string[];

  const spikeEvents = async () =>
    db.database.query<{ stream_id: string }>(`SELECT stream_id FROM event_store.events WHERE event_type = $1 ORDER BY stream_id`, [
      IngestEventTypes.SpikeProtectionActivated,
    ]);
  const addVolume = (organizationId: string, hour: Date, count: number) =>
    db.database.execute(
      `INSERT INTO ingest.organization_error_volume (organization_id, hour, count) VALUES ($1, $2, $3)
       ON CONFLICT (organization_id, hour) DO UPDATE SET count = organization_error_volume.count + EXCLUDED.count`,
      [organizationId, hour, count],
    );
  const evaluateTogether = () => Promise.all(workers.map((worker) => worker.evaluateDue()));

  beforeAll(async () => {
    db = await openTestDatabase();
    const recorder = new EventRecorder(new EventStore(db.database));
    const make = () =>
      new SpikeProtectionWorker(db.database, repository, new OrganizationLimitsCache(db.database, repository, config), recorder, config, clock);
    workers = [make(), make(), make()];
    organizations = [];
    const thisHour = new Date('2026-11-22T12:00:00.000Z');
    for (let n = 0; n < ORGANIZATIONS; n++) {
      const [{ id }] = await db.database.query<{ id: string }>(`INSERT INTO identity.organizations (slug, name) VALUES ($1, $1) RETURNING id::text`, [
        `org-${n}`,
      ]);
      organizations.push(id);
      // A steady 168 errors an hour for the past week: threshold max(100, 5 x 168) = 840.
      for (let hours = 1; hours <= 168; hours += 24) await addVolume(id, new Date(thisHour.getTime() - hours * HOUR_MS), 168 * 24);
      // Every other organization passes it this hour.
      await addVolume(id, thisHour, n % 2 === 0 ? 841 : 840);
    }
    // An organization that turned spike protection off is never limited.
    await repository.change(db.database, organizations[0], { spikeProtection: false }, clock.now());
  }, 120_000);

  afterAll(async () => {
    await db?.close();
  });

  it('evaluates each organization once per turn and begins each spike once, whatever the number of workers', async () => {
    const evaluated = await evaluateTogether();
    expect(evaluated.reduce((sum, n) => sum + n, 0)).toBe(ORGANIZATIONS);
    const spiking = organizations.filter((_, n) => n % 2 === 0 && n !== 0);
    expect((await spikeEvents()).map((row) => row.stream_id)).toEqual(spiking.map((id) => `organization-spikes-${id}`).sort());
    const limits = await repository.organization(db.database, spiking[0]);
    expect(limits).toMatchObject({ spikeThreshold: 840, spike: { startedAt: clock.now(), limitedUntil: new Date('2026-11-22T13:00:00.000Z') } });
    expect((await repository.organization(db.database, organizations[0])).spike).toEqual({ startedAt: null, limitedUntil: null });
    expect((await repository.organization(db.database, organizations[1])).spike.limitedUntil).toBeNull();
    // Not due again in the same minute.
    expect((await evaluateTogether()).reduce((sum, n) => sum + n, 0)).toBe(0);
  });

  it('keeps a spike that passes the threshold again the next hour as one, and ends it after a quiet hour', async () => {
    const spiking = organizations[2];
    clock.advance(HOUR_MS);
    await addVolume(spiking, new Date('2026-11-22T13:00:00.000Z'), 5000);
    await evaluateTogether();
    expect((await spikeEvents()).filter((row) => row.stream_id.endsWith(`-${spiking}`))).toHaveLength(1);
    expect((await repository.organization(db.database, spiking)).spike.limitedUntil).toEqual(new Date('2026-11-22T14:00:00.000Z'));
    clock.advance(2 * HOUR_MS);
    await evaluateTogether();
    expect((await repository.organization(db.database, spiking)).spike).toEqual({ startedAt: null, limitedUntil: null });
    expect((await spikeEvents()).filter((row) => row.stream_id.endsWith(`-${spiking}`))).toHaveLength(1);
  });
});
