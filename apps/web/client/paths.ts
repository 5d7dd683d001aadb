/** Matches `/settings/:org/projects/:project/hooks/` against a path, segment by segment; answers the parameters. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const wanted = pattern.replace(/\/$/, '').split('/');
  const given = path.replace(/\/$/, '').split('/');
  if (wanted.length !== given.length) return null;
  const params: Record<string, string> = {};
  for (let index = 0; index < wanted.length; index++) {
    if (wanted[index].startsWith(':') && given[index]) params[wanted[index].slice(1)] = decodeURIComponent(given[index]);
    else if (wanted[index] !== given[index]) return null;
  }
  return params;
}
