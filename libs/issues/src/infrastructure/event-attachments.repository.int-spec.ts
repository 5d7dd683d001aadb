import { Database } from '@faultline/platform';
import { startTestApp, type TestApp } from '../../../../test/support/test-app';
import type { EventAttachmentInput } from '../contracts/event-attachment-intake';
import { EventAttachmentsRepository } from './event-attachments.repository';

const MIB = 1024 * 1024;
const EVENT = 'a'.repeat(32);

/** Attachments against PostgreSQL: chunked storage read back whole, the quota charged once and freed by every deletion. */
describe('EventAttachmentsRepository', () => {
  let api: TestApp;
  let attachments: EventAttachmentsRepository;
  const stored = async (organizationId: string) =>
    Number(
      (
        await api.app
          .get(Database)
          .query<{ bytes: string }>(`SELECT stored_bytes::text AS bytes FROM releases.organization_storage WHERE organization_id = $1`, [organizationId])
      )[0]?.bytes ?? 0,
    );
  const input = (name: string, data: Buffer, receivedAt = '2026-01-10T00:00:00Z'): EventAttachmentInput => ({
    organizationId: '70',
    projectId: '700',
    eventId: EVENT,
    name,
    data,
    receivedAt,
  });
  const readBack = async (id: string) => {
    const chunks: Buffer[] = [];
    for (let position = 0; ; position++) {
      const chunk = await attachments.chunk(id, position);
      if (!chunk) return Buffer.concat(chunks);
      chunks.push(chunk);
    }
  };

  beforeAll(async () => {
    // The application's own quota (the releases context's) behind the port, with small budgets.
    api = await startTestApp({ ORGANIZATION_STORAGE_MAX_BYTES: String(4 * MIB), ATTACHMENT_MAX_BYTES: String(3 * MIB) });
    attachments = api.app.get(EventAttachmentsRepository);
  }, 60_000);

  afterAll(async () => {
    await api?.close();
  });

  it('keeps bytes in 1 MiB chunks read back exactly, charges a retry once, and drops only what is too large or over the quota', async () => {
    const big = Buffer.from(Array.from({ length: 2.5 * MIB }, (_, i) => (i * 31) % 256));
    expect(await attachments.keep([input('big.bin', big), input('empty.txt', Buffer.alloc(0))])).toEqual([{ kept: true }, { kept: true }]);
    // The SDK's retry of the same file for the same event.
    expect(await attachments.keep([input('big.bin', big)])).toEqual([{ kept: true }]);
    expect(await stored('70')).toBe(big.length);

    expect(
      await attachments.keep([
        input('huge.bin', Buffer.alloc(3 * MIB + 1)),
        input('over.bin', Buffer.alloc(2 * MIB, 1)),
        input('fits.bin', Buffer.alloc(MIB, 2)),
      ]),
    ).toEqual([{ kept: false, reason: 'too_large' }, { kept: false, reason: 'storage_quota' }, { kept: true }]);
    expect(await stored('70')).toBe(big.length + MIB);

    const listed = await attachments.list('700', EVENT, { offset: 0, limit: 10 });
    expect(listed.map((row) => [row.name, row.size])).toEqual([
      ['big.bin', big.length],
      ['empty.txt', 0],
      ['fits.bin', MIB],
    ]);
    expect((await readBack(listed[0].id)).equals(big)).toBe(true);
    expect(await readBack(listed[1].id)).toEqual(Buffer.alloc(0));
    expect((await attachments.list('700', EVENT, { offset: 0, limit: 10 }, 'FIT')).map((row) => row.name)).toEqual(['fits.bin']);

    expect(await attachments.delete('700', EVENT, listed[2].id)).toBe(true);
    expect(await attachments.delete('700', EVENT, listed[2].id)).toBe(false);
    expect(await stored('70')).toBe(big.length);
  });

  it('prunes attachments past retention, and those of projects that no longer exist, freeing their bytes', async () => {
    // The bootstrap project exists: only its attachment received before the cutoff goes.
    const [project] = await api.app
      .get(Database)
      .query<{ id: string; organization_id: string }>(
        `SELECT id::text AS id, organization_id::text AS organization_id FROM projects.project_directory WHERE slug = 'web'`,
      );
    const of = (name: string, receivedAt: string): EventAttachmentInput => ({
      ...input(name, Buffer.alloc(1000, 3), receivedAt),
      projectId: project.id,
      organizationId: project.organization_id,
    });
    await attachments.keep([of('old.bin', '2025-12-01T00:00:00Z'), of('recent.bin', '2026-01-05T00:00:00Z')]);
    expect(await stored(project.organization_id)).toBe(2000);

    // Project 700 is in no project directory: everything of it goes, whatever its age.
    expect(await attachments.prune(new Date('2026-01-01T00:00:00Z'))).toBe(3);
    expect(await stored('70')).toBe(0);
    expect(await attachments.list('700', EVENT, { offset: 0, limit: 10 })).toEqual([]);
    expect((await attachments.list(project.id, EVENT, { offset: 0, limit: 10 })).map((row) => row.name)).toEqual(['recent.bin']);
    expect(await stored(project.organization_id)).toBe(1000);
  });
});
