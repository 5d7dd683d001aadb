import fc from 'fast-check';

/**
 * Any text an SDK can put in JSON: any code point; any UTF-16 code unit (lone surrogates too,
 * which JSON.stringify sends as `\ud800` escapes); and, often, the characters PostgreSQL refuses
 * next to those that make escapes look alike.
 */
export const anyText = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)) }),
  fc.string({ unit: fc.constantFrom('\u0000', '\ud800', '\udbff', '\udc00', '\ud83d', '\ude00', 'a', '\\', 'u', '0', 'd', '8', '%') }),
);
