import assert from 'node:assert/strict';
import type { AggregateRoot } from '../aggregate-root';
import { DomainError, type DomainErrorCode } from '../domain-error';
import type { DomainEvent } from '../domain-event';

/** What the specification needs to know of an aggregate type. */
export interface SpecifiedDecider<A extends AggregateRoot<E>, E extends DomainEvent, S> {
  /** Rebuilds an aggregate from its history, as the store would load it. */
  fromHistory(history: readonly E[]): A;
  /** A plain copy of the aggregate's state, compared after every decision. */
  snapshot(aggregate: A): S;
}

/** A decision taken (or refused): check what it raised with exactly one of the `then` methods. */
export interface Decision<A, E, R> {
  readonly aggregate: A;
  /** What the command answered, if it answered. */
  readonly result: R | undefined;
  /** It raised exactly `expected`, and replaying history plus them rebuilds the same state. */
  then(expected: readonly E[]): A;
  /** It raised nothing and is no error: a command that would change nothing. */
  thenNothing(): A;
  /** It was refused with this DomainError and changed nothing. */
  thenError(code: DomainErrorCode, message: string | RegExp): void;
}

/**
 * Given/when/then for event-sourced aggregates, shared by every aggregate's spec:
 *
 *     const { given } = DeciderSpecification.for({ fromHistory: Issue.fromHistory, snapshot: (issue) => issue.toSnapshot() });
 *     given(created).when((issue) => issue.resolve(alice, T1)).then([resolved]);
 *
 * Every `then` replays history plus the raised events through JSON (as the store keeps them) and
 * checks that `evolve` rebuilds the same state and version. Comparisons are of JSON forms, so a
 * property that is undefined counts as absent. It uses node's assert, not a test framework's
 * globals; it is for specs only (the dependency rules keep production code from importing it).
 */
export const DeciderSpecification = {
  for<A extends AggregateRoot<E>, E extends DomainEvent, S>(decider: SpecifiedDecider<A, E, S>) {
    const fromHistory = (history: readonly E[]) => decider.fromHistory(history);
    const state = (aggregate: A) => json({ state: decider.snapshot(aggregate), version: aggregate.version });

    /** Replaying history plus the raised events (through JSON, as the store would) gives the same state. */
    function expectReplayReproduces(aggregate: A, history: readonly E[], raised: readonly E[]): void {
      const replayed = fromHistory(json([...history, ...raised]) as E[]);
      assert.deepEqual(state(replayed), state(aggregate), 'replaying the events rebuilds another state');
      // eslint-disable-next-line no-restricted-syntax -- a check of the version a replay loads at, not an append
      assert.equal(replayed.loadedVersion, history.length + raised.length);
    }

    function decision<R>(history: readonly E[], aggregate: A | undefined, result: R | undefined, error: unknown): Decision<A, E, R> {
      const decided = (): A => {
        if (error !== undefined) throw error;
        return aggregate as A;
      };
      return {
        aggregate: aggregate as A,
        result,
        then(expected) {
          const decidedOn = decided();
          const raised = decidedOn.peekPendingEvents();
          assert.deepEqual(json(raised), json(expected), 'raised other events');
          expectReplayReproduces(decidedOn, history, raised);
          return decidedOn;
        },
        thenNothing() {
          const decidedOn = decided();
          assert.deepEqual(json(decidedOn.peekPendingEvents()), [], 'raised events where nothing should change');
          return decidedOn;
        },
        thenError(code, message) {
          assert.ok(error instanceof DomainError, `expected a DomainError, got ${error === undefined ? 'none' : String(error)}`);
          assert.equal(error.code, code);
          if (typeof message === 'string') assert.equal(error.message, message);
          else assert.match(error.message, message);
          if (aggregate === undefined) return;
          assert.deepEqual(json(aggregate.peekPendingEvents()), [], 'a refused command raised events');
          assert.deepEqual(state(aggregate), state(fromHistory(history)), 'a refused command changed the state');
        },
      };
    }

    return {
      /** Given past events, when a command, then the raised events (replayed to the same state), nothing, or an error. */
      given(...history: E[]) {
        return {
          when<R>(command: (aggregate: A) => R): Decision<A, E, R> {
            const aggregate = fromHistory(history);
            try {
              return decision(history, aggregate, command(aggregate), undefined);
            } catch (error) {
              return decision<R>(history, aggregate, undefined, error);
            }
          },
        };
      },
      /** A factory that starts an aggregate, checked like any decision on an empty history. */
      creating(factory: () => A): Decision<A, E, void> {
        try {
          return decision<void>([], factory(), undefined, undefined);
        } catch (error) {
          return decision<void>([], undefined, undefined, error);
        }
      },
      expectReplayReproduces,
    };
  },
};

function json(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}
