import { transformSync } from 'esbuild';
import { decodedBytesAtMost, mappingsShape } from './source-map-budget';
import { ParsedSourceMap, SourceMapRefused } from './symbolicate-frames';

const MIB = 1024 * 1024;

describe('source map budget', () => {
  it('counts lines and at most how many segments a mappings string decodes to', () => {
    expect(mappingsShape('')).toEqual({ lines: 1, segments: 1 });
    expect(mappingsShape(';;AAAA,CAAC;AAAA')).toEqual({ lines: 4, segments: 5 });
  });

  // Decoded, the first would take 1.4 GB and the second 330 MB.
  it('refuses 32 MiB of ";" and millions of segments before decoding them', () => {
    for (const mappings of [';'.repeat(32 * MIB), `${'AAAA,'.repeat(3_000_000)}AAAA`]) {
      const text = JSON.stringify({ version: 3, sources: ['a.js'], names: [], mappings });
      expect(() => ParsedSourceMap.parse(text, 256 * MIB)).toThrow(/would decode to/);
    }
  });

  it('parses a real map, weighing it at no more than its count allowed', () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `export function f${i}(a) { return a + ${i}; }`).join('\n');
    const out = transformSync(lines, { minify: true, sourcemap: 'external', sourcefile: 'src/f.js', format: 'esm' });
    const json = JSON.parse(out.map);
    const map = ParsedSourceMap.parse(out.map, 256 * MIB);
    expect(map.bytes).toBeGreaterThan(out.map.length);
    expect(map.bytes).toBeLessThanOrEqual(decodedBytesAtMost(mappingsShape(json.mappings), json.sources.length + json.names.length, out.map.length));
    expect(() => ParsedSourceMap.parse(out.map, map.bytes - 1)).toThrow(SourceMapRefused);
    expect(() => ParsedSourceMap.parse('{"version": 3, "mappings": ', 256 * MIB)).toThrow(SourceMapRefused);
  });
});
