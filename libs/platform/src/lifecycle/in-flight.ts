import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { finalize, type Observable } from 'rxjs';

/**
 * Counts request handlers still running. A client that hangs up does not stop its handler, so the
 * database closes only once the count reaches zero (or the grace period ends).
 */
@Injectable()
export class InFlightRequests implements NestInterceptor {
  private count = 0;
  private waiters: Array<() => void> = [];

  get size(): number {
    return this.count;
  }

  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    this.count++;
    return next.handle().pipe(finalize(() => this.done()));
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
