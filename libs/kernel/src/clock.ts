export interface Clock {
  now(): Date;
}

// eslint-disable-next-line no-restricted-syntax -- the one place that reads the wall clock: the clock itself.
export const systemClock: Clock = { now: () => new Date() };

export class FixedClock implements Clock {
  constructor(private current: Date) {}

  now(): Date {
    return new Date(this.current.getTime());
  }

  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

/** The injection token under which the application provides its Clock. */
export const CLOCK = Symbol('Clock');
