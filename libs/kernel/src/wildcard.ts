const WORD_BITS = 32;
/** Tokens of a compiled pattern: a character code, or one of these (never a character code). */
const ANY_ONE = -1;
const ANY_RUN = -2;

/**
 * A wildcard pattern (any run, exactly one, everything else literal) over the whole text. Matched
 * by running its automaton over a bit set of states, one step per character of the text: the cost
 * is the text's length times a word per 32 pattern characters, whatever the pattern, so no pattern
 * can make matching backtrack. This is the one wildcard matcher: a pattern a user typed is never
 * made into a regular expression.
 */
class WildcardAutomaton {
  /** Per character: the states whose token accepts it (its literal, or any-one). */
  private readonly accepting = new Map<number, Uint32Array>();
  /** The states of any-one tokens: what any other character is accepted by. */
  private readonly anyChar: Uint32Array;
  private readonly stars: Uint32Array;
  /** State `i` means "the first `i` tokens matched"; the last one means the whole pattern did. */
  private readonly finalState: number;
  private readonly endsWithStar: boolean;
  private readonly words: number;

  constructor(tokens: readonly number[]) {
    this.finalState = tokens.length;
    this.endsWithStar = tokens[tokens.length - 1] === ANY_RUN;
    this.words = Math.ceil((tokens.length + 1) / WORD_BITS);
    this.anyChar = new Uint32Array(this.words);
    this.stars = new Uint32Array(this.words);
    tokens.forEach((token, i) => {
      if (token === ANY_ONE) setBit(this.anyChar, i);
      else if (token === ANY_RUN) setBit(this.stars, i);
    });
    tokens.forEach((token, i) => {
      if (token < 0) return;
      let states = this.accepting.get(token);
      if (!states) this.accepting.set(token, (states = Uint32Array.from(this.anyChar)));
      setBit(states, i);
    });
  }

  matches(text: string): boolean {
    const words = this.words;
    let active = new Uint32Array(words);
    let next = new Uint32Array(words);
    setBit(active, 0);
    if (hasBit(this.stars, 0)) setBit(active, 1);
    for (let position = 0; position < text.length; position++) {
      if (this.endsWithStar && hasBit(active, this.finalState - 1)) return true;
      const accepting = this.accepting.get(text.charCodeAt(position)) ?? this.anyChar;
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

/** The tokens of a pattern; runs of any-run collapse into one, which keeps every star's state followed by a non-star. */
function tokenize(pattern: string, syntax: { anyRun: string; anyOne: string; escape?: string }): number[] {
  const tokens: number[] = [];
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index];
    if (char === syntax.escape && index + 1 < pattern.length) tokens.push(pattern.charCodeAt(++index));
    else if (char === syntax.anyRun) {
      if (tokens[tokens.length - 1] !== ANY_RUN) tokens.push(ANY_RUN);
    } else if (char === syntax.anyOne) tokens.push(ANY_ONE);
    else tokens.push(pattern.charCodeAt(index));
  }
  return tokens;
}

/**
 * Globs as Sentry's inbound filters take them: `*` any run of characters (newlines included), `?`
 * exactly one, everything else literal, case-insensitive. `matches` says whether any of them
 * matches the whole text.
 */
export class GlobSet {
  private readonly globs: readonly WildcardAutomaton[];

  constructor(patterns: readonly string[]) {
    this.globs = patterns.map((pattern) => new WildcardAutomaton(tokenize(fold(pattern), { anyRun: '*', anyOne: '?' })));
  }

  get size(): number {
    return this.globs.length;
  }

  matches(text: string): boolean {
    const folded = fold(text);
    return this.globs.some((glob) => glob.matches(folded));
  }
}

/**
 * A SQL `LIKE` pattern, matched in memory as PostgreSQL matches it: `%` any run, `_` exactly one,
 * a backslash makes the next character literal, case-sensitive.
 */
export class LikePattern {
  private readonly automaton: WildcardAutomaton;

  constructor(like: string) {
    this.automaton = new WildcardAutomaton(tokenize(like, { anyRun: '%', anyOne: '_', escape: '\\' }));
  }

  matches(text: string): boolean {
    return this.automaton.matches(text);
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
