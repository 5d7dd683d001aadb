/**
 * What ownership rules are matched against, read from a stored (normalised) event: the frames'
 * paths and modules, the thrown exception's innermost frame first, then its causes', the event's
 * own stack trace and its threads'; the request URL; the tags as Sentry shows them. The shape of
 * the projects context's `OwnershipSubject`.
 */
export interface EventOwnershipSubject {
  readonly paths: string[];
  readonly modules: string[];
  readonly url?: string;
  readonly tags: ReadonlyArray<readonly [string, string]>;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const textOf = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);

function framesOf(holder: unknown): Json[] {
  if (!isObject(holder) || !isObject(holder.stacktrace) || !Array.isArray(holder.stacktrace.frames)) return [];
  return holder.stacktrace.frames.filter(isObject).reverse();
}

export function ownershipSubjectOf(data: Json, tags: ReadonlyArray<readonly [string, string]>): EventOwnershipSubject {
  const exceptions = Array.isArray(data.exceptions) ? [...data.exceptions].reverse() : [];
  const threads = Array.isArray(data.threads) ? data.threads : [];
  const frames = [...exceptions, data, ...threads].flatMap(framesOf);
  const paths: string[] = [];
  const modules: string[] = [];
  for (const frame of frames) {
    for (const path of [textOf(frame.filename), textOf(frame.absPath ?? frame.abs_path)]) if (path) paths.push(path);
    const module = textOf(frame.module);
    if (module) modules.push(module);
  }
  const url = isObject(data.request) ? textOf(data.request.url) : undefined;
  return { paths, modules, url, tags };
}
