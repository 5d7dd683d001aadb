import { AggregateRoot } from '../aggregate-root';
import { DomainError } from '../domain-error';
import { domainEvent, type DomainEvent } from '../domain-event';
import { DeciderSpecification } from './decider-specification';

type Added = DomainEvent<'test.Added', { amount: number }>;

/** A counter that refuses negative amounts, ignores zero, and (on purpose, for one case) can forget to evolve. */
class Counter extends AggregateRoot<Added> {
  total = 0;
  add(amount: number, evolveAsWell = true): number {
    if (amount < 0) throw DomainError.invalid('amount must not be negative');
    if (amount === 0) return this.total;
    if (evolveAsWell) this.raise(domainEvent('test.Added', { amount }));
    else (this as unknown as { pending: Added[] }).pending.push(domainEvent('test.Added', { amount }));
    return this.total;
  }
  protected evolve(event: Added): void {
    this.total += event.data.amount;
  }
}

const added = (amount: number) => domainEvent('test.Added' as const, { amount });
const { given, creating } = DeciderSpecification.for<Counter, Added, { total: number }>({
  fromHistory: (history) => new Counter().loadFromHistory(history),
  snapshot: (counter) => ({ total: counter.total }),
});

describe('DeciderSpecification', () => {
  it('passes what the aggregate decides and answers what the command answered', () => {
    const decision = given(added(2)).when((counter) => counter.add(3));
    expect(decision.result).toBe(5);
    expect(decision.then([added(3)]).total).toBe(5);
    given(added(2))
      .when((counter) => counter.add(0))
      .thenNothing();
    given()
      .when((counter) => counter.add(-1))
      .thenError('invalid', /negative/);
    expect(creating(() => new Counter()).thenNothing().total).toBe(0);
  });

  it('fails on other events, on events where nothing should change, and on a missing or other error', () => {
    expect(() =>
      given()
        .when((counter) => counter.add(3))
        .then([added(4)]),
    ).toThrow(/raised other events/);
    expect(() =>
      given()
        .when((counter) => counter.add(3))
        .thenNothing(),
    ).toThrow(/raised events where nothing should change/);
    expect(() =>
      given()
        .when((counter) => counter.add(3))
        .thenError('invalid', /negative/),
    ).toThrow(/expected a DomainError/);
    expect(() =>
      given()
        .when((counter) => counter.add(-1))
        .thenError('conflict', /negative/),
    ).toThrow();
    expect(() =>
      given()
        .when((counter) => counter.add(-1))
        .thenError('invalid', 'another message'),
    ).toThrow();
    expect(() =>
      given()
        .when((counter) => counter.add(-1))
        .then([]),
    ).toThrow(/negative/);
  });

  it('fails when replaying the raised events does not rebuild the decided state', () => {
    expect(() =>
      given()
        .when((counter) => counter.add(3, false))
        .then([added(3)]),
    ).toThrow(/rebuilds another state/);
  });
});
