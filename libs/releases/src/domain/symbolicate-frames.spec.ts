import { transformSync } from 'esbuild';
import { TraceMap } from '@jridgewell/trace-mapping';
import { type JsFrame, ParsedSourceMap, symbolicateFrames } from './symbolicate-frames';

const SOURCE = [
  'export function checkout(cart) {',
  '  return chargeCard(cart.total);',
  '}',
  'function chargeCard(amount) {',
  '  if (amount > 100) throw new TypeError("declined " + amount);',
  '  return amount;',
  '}',
].join('\n');

function minified() {
  const out = transformSync(SOURCE, { minify: true, sourcemap: 'external', sourcefile: 'src/checkout.js', format: 'esm' });
  return { code: out.code, map: new ParsedSourceMap(new TraceMap(out.map)) };
}

/** 1-based line and column of a text in the minified code. */
function at(code: string, text: string): { lineno: number; colno: number } {
  const offset = code.indexOf(text);
  const before = code.slice(0, offset).split('\n');
  return { lineno: before.length, colno: before[before.length - 1].length + 1 };
}

describe('symbolicateFrames', () => {
  it('answers the original file, line, function and source lines, the function named by its caller', () => {
    const { code, map } = minified();
    const frames: JsFrame[] = [
      { filename: 'bundle.js', function: 'x', ...at(code, `${/return (\w+)\(/.exec(code)?.[1]}(`) },
      { filename: 'bundle.js', function: 'y', ...at(code, 'throw') },
    ];
    const result = symbolicateFrames(frames, () => ({ map, url: '~/bundle.js' }));
    expect(result.errors).toEqual([]);
    expect(result.frames?.[1]).toMatchObject({
      filename: 'src/checkout.js',
      lineno: 5,
      function: 'chargeCard',
      contextLine: '  if (amount > 100) throw new TypeError("declined " + amount);',
      preContext: SOURCE.split('\n').slice(0, 4),
      postContext: SOURCE.split('\n').slice(5),
    });
    expect(result.frames?.[0]).toMatchObject({ filename: 'src/checkout.js', lineno: 2, function: 'x' });
  });

  it('leaves frames without a map alone and reports an unreadable map once per file', () => {
    const frames: JsFrame[] = [
      { filename: 'a.js', lineno: 1, colno: 5 },
      { filename: 'a.js', lineno: 1, colno: 9 },
    ];
    expect(symbolicateFrames(frames, () => undefined)).toEqual({ frames: null, errors: [] });
    const broken = symbolicateFrames(frames, () => ({ invalid: true, url: '~/a.js.map' }));
    expect(broken.frames).toBeNull();
    expect(broken.errors).toEqual([{ type: 'js_invalid_source', message: expect.any(String), data: { url: '~/a.js.map' } }]);
  });

  it('reports a position the map does not cover', () => {
    const { map } = minified();
    const result = symbolicateFrames([{ filename: 'a.js', lineno: 99, colno: 1 }], () => ({ map, url: '~/a.js.map' }));
    expect(result.errors.map((error) => error.type)).toEqual(['js_invalid_sourcemap_location']);
  });
});
