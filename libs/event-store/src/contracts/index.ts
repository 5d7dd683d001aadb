/**
 * The version a writer believes a stream is at: a number (0 = the stream has no events yet),
 * 'no_stream' (the same as 0) or 'any' (append after whatever is there).
 */
export type ExpectedVersion = number | 'no_stream' | 'any';

/** Restricts a global read; an omitted list does not filter, an empty list matches nothing. */
export interface ReadAllFilter {
  readonly streamTypes?: readonly string[];
  readonly eventTypes?: readonly string[];
}

/** A global position as the database gives it: a bigint rendered as a decimal string. */
export type GlobalPosition = string;
export { EVENT_STORE_PUBLISHED_VIEWS } from './published-views';
