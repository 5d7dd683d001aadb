import fc from 'fast-check';
import { evaluateSpike, NO_SPIKE, spikeThreshold, type SpikeSettings } from './spike-protection';

const SETTINGS: SpikeSettings = { multiplier: 5, floor: 500, baselineHours: 168 };
const NOW = new Date('2026-03-10T12:20:00.000Z');
const HOUR_END = new Date('2026-03-10T13:00:00.000Z');
const at = (iso: string) => new Date(iso);

describe('spike protection', () => {
  it('takes a multiple of the average hour of the past days as the threshold, never below the floor', () => {
    expect(spikeThreshold(0, SETTINGS)).toBe(500);
    expect(spikeThreshold(168 * 200, SETTINGS)).toBe(1000);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e9 }), (baseline) => {
        const threshold = spikeThreshold(baseline, SETTINGS);
        expect(threshold).toBeGreaterThanOrEqual(SETTINGS.floor);
        expect(threshold).toBeGreaterThanOrEqual((SETTINGS.multiplier * baseline) / SETTINGS.baselineHours);
      }),
    );
  });

  it('given an hour past the threshold, then the spike begins and errors are dropped until the hour ends', () => {
    const evaluation = evaluateSpike({ enabled: true, baselineErrors: 168 * 10, currentHourErrors: 501, state: NO_SPIKE, settings: SETTINGS, now: NOW });
    expect(evaluation).toEqual({ threshold: 500, state: { startedAt: NOW, limitedUntil: HOUR_END }, started: true, ended: false });
  });

  it('given a spike that passes the threshold again the next hour, then it goes on as the same spike (no second notice)', () => {
    const state = { startedAt: at('2026-03-10T11:10:00.000Z'), limitedUntil: at('2026-03-10T12:00:00.000Z') };
    const evaluation = evaluateSpike({ enabled: true, baselineErrors: 0, currentHourErrors: 900, state, settings: SETTINGS, now: NOW });
    expect(evaluation).toEqual({ threshold: 500, state: { startedAt: state.startedAt, limitedUntil: HOUR_END }, started: false, ended: false });
  });

  it('given a spike, then it ends once a quiet hour follows its last limited one', () => {
    const state = { startedAt: at('2026-03-10T10:10:00.000Z'), limitedUntil: at('2026-03-10T11:00:00.000Z') };
    const quiet = { enabled: true, baselineErrors: 0, currentHourErrors: 10, state, settings: SETTINGS };
    expect(evaluateSpike({ ...quiet, now: at('2026-03-10T11:59:59.000Z') })).toMatchObject({ state, ended: false });
    expect(evaluateSpike({ ...quiet, now: at('2026-03-10T12:00:00.000Z') })).toMatchObject({ state: NO_SPIKE, ended: true });
  });

  it('given spike protection turned off, then nothing is limited and a spike in progress ends', () => {
    const state = { startedAt: NOW, limitedUntil: HOUR_END };
    expect(evaluateSpike({ enabled: false, baselineErrors: 0, currentHourErrors: 10_000, state, settings: SETTINGS, now: NOW })).toMatchObject({
      state: NO_SPIKE,
      started: false,
      ended: true,
    });
  });

  it('starts a spike only from no spike, and limits only past the threshold', () => {
    const time = fc.integer({ min: 0, max: 48 }).map((hours) => new Date(NOW.getTime() + hours * 1_800_000));
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 200_000 }),
        fc.integer({ min: 0, max: 3000 }),
        fc.option(fc.tuple(time, time)),
        time,
        (baseline, current, spike, now) => {
          const state = spike ? { startedAt: spike[0], limitedUntil: spike[1] } : NO_SPIKE;
          const evaluation = evaluateSpike({ enabled: true, baselineErrors: baseline, currentHourErrors: current, state, settings: SETTINGS, now });
          if (evaluation.started) expect(state.startedAt).toBeNull();
          const limitsNow = evaluation.state.limitedUntil !== null && evaluation.state.limitedUntil > now && evaluation.state !== state;
          if (limitsNow) expect(current).toBeGreaterThan(evaluation.threshold);
        },
      ),
    );
  });
});
