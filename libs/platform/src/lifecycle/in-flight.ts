import type { FastifyInstance, RouteOptions } from 'fastify';

type RouteHandler = RouteOptions['handler'];

/**
 * Counts request handlers still running. A client that hangs up does not stop its handler, so the
 * database closes only once the count reaches zero (or the grace period ends).
 *
 * The count wraps each route's Fastify handler (see `countRouteHandlers`) rather than being a Nest
 * interceptor: with no interceptor Nest skips its per-request rxjs pipeline. A Nest route's Fastify
 * handler is the whole of Nest's work for the request, guards, pipes, the controller method and
 * the exception filter, and its promise settles only when that work is done, whether or not the
 * client is still there.
 */
export class InFlightRequests {
  private count = 0;
  private waiters: Array<() => void> = [];
  private readonly enter = (): void => {
    this.count++;
  };
  private readonly leave = (): void => this.done();

  get size(): number {
    return this.count;
  }

  /**
   * Counts the handler of every route registered on `fastify` from now on. Call it before the
   * routes exist: Nest registers its routes in `init()`, after its providers are built.
   */
  countRouteHandlers(fastify: FastifyInstance): void {
    fastify.addHook('onRoute', (route) => {
      route.handler = this.track(route.handler);
    });
  }

  /** The handler, counted from its call until what it returns settles (or until it throws). */
  track(handler: RouteHandler): RouteHandler {
    const { enter, leave } = this;
    return function countedHandler(this: FastifyInstance, request, reply) {
      enter();
      let result: unknown;
      try {
        result = handler.call(this, request, reply);
      } catch (error) {
        leave();
        throw error;
      }
      // The result itself goes back to Fastify untouched (it may be the reply, which Fastify treats specially).
      if (result !== null && typeof result === 'object' && typeof (result as PromiseLike<unknown>).then === 'function') {
        (result as PromiseLike<unknown>).then(leave, leave);
      } else {
        leave();
      }
      return result;
    } as RouteHandler;
  }

  /** Resolves when no handler runs, or after `graceMs`; answers whether everything finished. */
  drained(graceMs: number): Promise<boolean> {
    if (this.count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), graceMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  private done(): void {
    this.count--;
    if (this.count > 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
