import { DeciderSpecification } from '@faultline/kernel/testing';
import { MonitorEnvironment, type MonitorEnvironmentState } from './monitor-environment.aggregate';
import {
  type MonitorEnvironmentEvent,
  monitorEnvironmentCreated,
  monitorEnvironmentFailed,
  monitorEnvironmentMuted,
  monitorEnvironmentRecovered,
  runCounted,
} from './monitor-environment.events';

const { given, creating } = DeciderSpecification.for<MonitorEnvironment, MonitorEnvironmentEvent, MonitorEnvironmentState>({
  fromHistory: (history) => new MonitorEnvironment().loadFromHistory(history),
  snapshot: (environment) => environment.snapshot,
});

const id = { monitorEnvironmentId: '5' };
const created = monitorEnvironmentCreated({ ...id, monitorId: '2', environment: 'production', at: '2026-11-22T12:00:00.000Z' });
const at = (minute: number) => `2026-11-22T12:${String(minute).padStart(2, '0')}:00.000Z`;
const run = (checkInId: string, outcome: 'ok' | 'error' | 'missed' | 'timeout', minute: number) => ({ checkInId, outcome, at: at(minute) });
const counted = (checkInId: string, outcome: 'ok' | 'error' | 'missed' | 'timeout', minute: number) =>
  runCounted({ ...id, ...run(checkInId, outcome, minute) });
const single = { failure: 1, recovery: 1 };
const threeAndTwo = { failure: 3, recovery: 2 };

describe('MonitorEnvironment', () => {
  it('is created active, and its first good run makes it ok; later good runs change nothing', () => {
    const environment = creating(() => MonitorEnvironment.create({ id: '5', monitorId: '2', environment: 'production', at: at(0) })).then([created]);
    expect(environment.status).toBe('active');
    const first = given(created).when((env) => env.recordRun(run('a', 'ok', 1), single));
    expect(first.result).toBe('none');
    expect(first.then([counted('a', 'ok', 1)]).status).toBe('ok');
    given(created, counted('a', 'ok', 1))
      .when((env) => env.recordRun(run('b', 'ok', 2), single))
      .thenNothing();
  });

  it('fails at the failure threshold (errors, missed and timed-out runs alike), then every failure is one more occurrence', () => {
    const ok = counted('a', 'ok', 1);
    const missed = given(created, ok).when((env) => env.recordRun(run('b', 'missed', 2), threeAndTwo));
    expect(missed.result).toBe('none');
    missed.then([counted('b', 'missed', 2)]);
    const third = given(created, ok, counted('b', 'missed', 2), counted('c', 'timeout', 3)).when((env) => env.recordRun(run('d', 'error', 4), threeAndTwo));
    expect(third.result).toBe('failed');
    const failed = third.then([monitorEnvironmentFailed({ ...id, ...run('d', 'error', 4), failedRuns: 3 })]);
    expect(failed.snapshot).toMatchObject({ status: 'error', failingSince: at(2), failedRuns: 0 });

    const inError = [created, ok, monitorEnvironmentFailed({ ...id, ...run('b', 'missed', 2), failedRuns: 1 })];
    const again = given(...inError).when((env) => env.recordRun(run('c', 'missed', 3), single));
    expect(again.result).toBe('failing');
    again.thenNothing();
  });

  it('a good run between failures starts the count again', () => {
    const history = [created, counted('a', 'ok', 1), counted('b', 'error', 2), counted('c', 'error', 3)];
    const reset = given(...history).when((env) => env.recordRun(run('d', 'ok', 4), threeAndTwo));
    expect(reset.then([counted('d', 'ok', 4)]).snapshot).toMatchObject({ status: 'ok', failedRuns: 0 });
    const after = given(...history, counted('d', 'ok', 4)).when((env) => env.recordRun(run('e', 'error', 5), threeAndTwo));
    expect(after.result).toBe('none');
    after.then([counted('e', 'error', 5)]);
  });

  it('recovers at the recovery threshold; a failure in between starts the recovery count again', () => {
    const failed = monitorEnvironmentFailed({ ...id, ...run('a', 'error', 1), failedRuns: 1 });
    const one = given(created, failed).when((env) => env.recordRun(run('b', 'ok', 2), threeAndTwo));
    expect(one.result).toBe('none');
    one.then([counted('b', 'ok', 2)]);
    const broken = given(created, failed, counted('b', 'ok', 2)).when((env) => env.recordRun(run('c', 'missed', 3), threeAndTwo));
    expect(broken.result).toBe('failing');
    expect(broken.then([counted('c', 'missed', 3)]).snapshot.recoveredRuns).toBe(0);
    const recovering = given(created, failed, counted('b', 'ok', 2)).when((env) => env.recordRun(run('c', 'ok', 3), threeAndTwo));
    expect(recovering.result).toBe('recovered');
    const recovered = recovering.then([monitorEnvironmentRecovered({ ...id, ...run('c', 'ok', 3), recoveredRuns: 2 })]);
    expect(recovered.snapshot).toMatchObject({ status: 'ok', failedRuns: 0, recoveredRuns: 0 });
    expect(recovered.snapshot.failingSince).toBeUndefined();
  });

  it('mutes and unmutes; muting a muted environment changes nothing', () => {
    const muted = monitorEnvironmentMuted({ ...id, at: at(3) });
    expect(
      given(created)
        .when((env) => env.mute(true, at(3)))
        .then([muted]).isMuted,
    ).toBe(true);
    given(created, muted)
      .when((env) => env.mute(true, at(4)))
      .thenNothing();
    given(created)
      .when((env) => env.mute(false, at(4)))
      .thenNothing();
  });
});
