import fc from 'fast-check';
import { anyText } from '../../../../test/support/arbitrary-text';
import { CHECK_IN_LIMITS, readCheckIn } from './check-in';

describe('readCheckIn', () => {
  it('reads what SDKs send: seconds as milliseconds, production by default, the slug as Relay normalises it', () => {
    expect(readCheckIn({ check_in_id: 'AB'.repeat(16), monitor_slug: 'Nightly Report!', status: 'ok', duration: 1.5 })).toEqual({
      checkInId: 'ab'.repeat(16),
      monitorSlug: 'nightly-report',
      status: 'ok',
      durationMs: 1500,
      environment: 'production',
      monitorConfig: null,
    });
    expect(readCheckIn({ check_in_id: '0'.repeat(32), monitor_slug: 'a', status: 'ok' })).toEqual({ problem: 'check_in_id must be a UUID' });
    expect(readCheckIn({ check_in_id: 'ab'.repeat(16), monitor_slug: 'a', status: 'done' })).toEqual({
      problem: 'status must be one of in_progress, ok, error',
    });
  });

  it('never throws, and whatever it reads stays within its limits', () => {
    const field = fc.oneof(anyText, fc.double(), fc.integer(), fc.constant(null), fc.boolean(), fc.constantFrom('ok', 'error', 'in_progress'));
    fc.assert(
      fc.property(
        fc.record(
          { check_in_id: fc.oneof(field, fc.uuid()), monitor_slug: field, status: field, duration: field, environment: field, monitor_config: fc.anything() },
          { requiredKeys: [] },
        ),
        (payload) => {
          const read = readCheckIn(payload);
          if ('problem' in read) return;
          expect(read.monitorSlug.length).toBeGreaterThan(0);
          expect(read.monitorSlug.length).toBeLessThanOrEqual(CHECK_IN_LIMITS.maxSlugLength);
          expect(read.environment.length).toBeLessThanOrEqual(CHECK_IN_LIMITS.maxEnvironmentLength);
          if (read.durationMs !== null) expect(Number.isFinite(read.durationMs) && read.durationMs >= 0).toBe(true);
        },
      ),
    );
  });
});
