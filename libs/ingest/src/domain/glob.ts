const STAR = 0x2a;
const QUESTION_MARK = 0x3f;
const WORD_BITS = 32;

/**
 * A glob as Sentry's inbound filters take it: `*` any run of characters (newlines included), `?`
 * exactly one, everything else literal, case-insensitive. Matched by running its automaton over a
 * bit set of states, one step per character of the text: the cost is the text's length times a
 * word per 32 pattern characters, whatever the pattern, so no pattern can make matching backtrack.
 */
class Glob {
  /** Per character: the states whose token accepts it (its literal, or `?`). */
  private readonly accepting = new Map<number, Uint32Array>();
  /** The states of `?` tokens: what any other character is accepted by. */
  private readonly anyChar: Uint32Array;
  private readonly stars: Uint32Array;
  /** State `i` means "the first `i` tokens matched"; the last one means the whole pattern did. */
  private readonly finalState: number;
  private readonly endsWithStar: boolean;
  private readonly words: number;

  constructor(pattern: string) {
    // `**` matches what `*` does; collapsing runs keeps every star's state followed by a non-star.
    const tokens = fold(pattern).replace(/\*+/g, '*');
    this.finalState = tokens.length;
    this.endsWithStar = tokens.endsWith('*');
    this.words = Math.ceil((tokens.length + 1) / WORD_BITS);
    this.anyChar = new Uint32Array(this.words);
    this.stars = new Uint32Array(this.words);
    for (let i = 0; i < tokens.length; i++) {
      const code = tokens.charCodeAt(i);
      if (code === QUESTION_MARK) setBit(this.anyChar, i);
      else if (code === STAR) setBit(this.stars, i);
    }
    for (let i = 0; i < tokens.length; i++) {
      const code = tokens.charCodeAt(i);
      if (code === QUESTION_MARK || code === STAR) continue;
      let states = this.accepting.get(code);
      if (!states) this.accepting.set(code, (states = Uint32Array.from(this.anyChar)));
      setBit(states, i);
    }
  }

  /** `folded` as `fold` returns it. */
  matchesFolded(folded: string): boolean {
    const words = this.words;
    let active = new Uint32Array(words);
    let next = new Uint32Array(words);
    setBit(active, 0);
    if (hasBit(this.stars, 0)) setBit(active, 1);
    for (let position = 0; position < folded.length; position++) {
      if (this.endsWithStar && hasBit(active, this.finalState - 1)) return true;
      const accepting = this.accepting.get(folded.charCodeAt(position)) ?? this.anyChar;
      // A token that accepts the character moves its state one on; a star keeps its own, and may
      // match nothing, so reaching a star's state reaches the state after it too (never a star).
      let advanceCarry = 0;
      let skipCarry = 0;
      let any = 0;
      for (let w = 0; w < words; w++) {
        const advancing = active[w] & accepting[w];
        let word = (advancing << 1) | advanceCarry | (active[w] & this.stars[w]);
        const atStar = word & this.stars[w];
        word = (word | (atStar << 1) | skipCarry) >>> 0;
        next[w] = word;
        advanceCarry = advancing >>> (WORD_BITS - 1);
        skipCarry = atStar >>> (WORD_BITS - 1);
        any |= word;
      }
      if (any === 0) return false;
      const previous = active;
      active = next;
      next = previous;
    }
    return hasBit(active, this.finalState);
  }
}

/**
 * Globs as Sentry's inbound filters take them; `matches` says whether any of them matches the
 * whole text.
 */
export class GlobSet {
  private readonly globs: readonly Glob[];

  constructor(patterns: readonly string[]) {
    this.globs = patterns.map((pattern) => new Glob(pattern));
  }

  get size(): number {
    return this.globs.length;
  }

  matches(text: string): boolean {
    const folded = fold(text);
    return this.globs.some((glob) => glob.matchesFolded(folded));
  }
}

function fold(text: string): string {
  return text.toLowerCase();
}

function setBit(words: Uint32Array, bit: number): void {
  words[bit >>> 5] |= 1 << (bit & 31);
}

function hasBit(words: Uint32Array, bit: number): boolean {
  return (words[bit >>> 5] & (1 << (bit & 31))) !== 0;
}
