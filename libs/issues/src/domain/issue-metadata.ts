/** The main exception's type and value (the last of an event's `exceptions`), which an issue keeps from the event that made it. */
export function mainException(exceptions: unknown): { type?: string; value?: string } | null {
  const main: unknown = Array.isArray(exceptions) ? exceptions.at(-1) : undefined;
  if (!main || typeof main !== 'object') return null;
  const { type, value } = main as { type?: unknown; value?: unknown };
  return { type: typeof type === 'string' ? type : undefined, value: typeof value === 'string' ? value : undefined };
}
