import { snippetFor, SNIPPETS } from './snippets';

describe('setup snippets', () => {
  const dsn = 'http://0123456789abcdef0123456789abcdef@127.0.0.1:9000/42';

  it.each(SNIPPETS.map((snippet) => [snippet.label, snippet]))('%s: the DSN appears once, quoted, in the init call', (_, snippet) => {
    const code = snippet.code(dsn);
    expect(code.split(dsn)).toHaveLength(2);
    expect(code).toMatch(new RegExp(`["']${dsn.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}["']`));
    expect(code).toMatch(/init/i);
  });

  it('picks the snippet for a platform, its family, or the first one', () => {
    expect(snippetFor('python').label).toBe('Python');
    expect(snippetFor('javascript-react').label).toBe('Browser JavaScript');
    expect(snippetFor('node-express').label).toBe('Node.js');
    expect(snippetFor(null)).toBe(SNIPPETS[0]);
    expect(snippetFor('elixir')).toBe(SNIPPETS[0]);
  });
});
