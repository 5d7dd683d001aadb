// The few parts of pg-copy-streams 7 used here (the package ships no types).
declare module 'pg-copy-streams' {
  import type { Readable, Writable } from 'node:stream';
  import type { Submittable } from 'pg';

  export interface CopyToStreamQuery extends Readable, Submittable {
    /** Rows sent, once the stream has ended. */
    readonly rowCount: number;
  }
  export interface CopyStreamQuery extends Writable, Submittable {
    /** Rows stored, once the stream has finished. */
    readonly rowCount: number;
  }
  export function to(text: string): CopyToStreamQuery;
  export function from(text: string): CopyStreamQuery;
}
