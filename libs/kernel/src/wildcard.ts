const WORD_BITS = 32;
/** Tokens of a compiled pattern: a character code, or one of these (never a character code). */
const ANY_ONE = -1;
const ANY_RUN = -2;
/** Characters below this get a dense row of the automaton each; the others are looked up. */
const DENSE_CHARS = 128;

/**
 * The automaton of several wildcard patterns (any run, exactly one, everything else literal) over
 * the whole text, run over one bit set of all their states, one step per character of the text:
 * the cost is the text's length times a word per 32 pattern states, whatever the patterns, so no
 * pattern can make matching backtrack. A pattern a user typed is never made into a regular expression.
 *
 * Pattern `k` owns the states `start[k]` (nothing matched) to `start[k] + tokens` (all matched),
 * packed one after another. Bits never cross from one pattern into the next: a state moves on only
 * through its own token, and a pattern's last state has none.
 */
class WildcardAutomaton {
  private readonly words: number;
  private readonly starts: Int32Array;
  private readonly lengths: Int32Array;
  private readonly startsWithStar: Uint8Array;
  /** Per character below DENSE_CHARS, the offset of its row: the states whose token accepts it. Row 0 is any-one's. */
  private readonly denseRow = new Int32Array(DENSE_CHARS);
  private readonly rows: Int32Array;
  /** Other characters of the patterns: the words and bits of their states, added to any-one's row when met. */
  private readonly otherChars = new Map<number, { readonly words: Int32Array; readonly bits: Int32Array }>();
  private readonly stars: Int32Array;
  /** States of stars that end their pattern: reaching one matches whatever follows. */
  private readonly lastStars: Int32Array;
  private readonly finals: Int32Array;
  /** Scratch, so that matching allocates nothing. */
  private readonly active: Int32Array;
  private readonly next: Int32Array;
  private readonly otherRow: Int32Array;
  /** Work done so far: one per state word per character stepped. */
  wordSteps = 0;

  constructor(patterns: readonly (readonly number[])[]) {
    this.starts = new Int32Array(patterns.length);
    this.lengths = Int32Array.from(patterns, (tokens) => tokens.length);
    this.startsWithStar = new Uint8Array(patterns.length);
    let states = 0;
    patterns.forEach((tokens, k) => {
      this.starts[k] = states;
      this.startsWithStar[k] = tokens[0] === ANY_RUN ? 1 : 0;
      states += tokens.length + 1;
    });
    const words = (this.words = Math.max(1, Math.ceil(states / WORD_BITS)));
    this.stars = new Int32Array(words);
    this.lastStars = new Int32Array(words);
    this.finals = new Int32Array(words);
    this.active = new Int32Array(words);
    this.next = new Int32Array(words);
    this.otherRow = new Int32Array(words);
    const anyChar = new Int32Array(words);
    const denseChars: number[] = [];
    const otherBits = new Map<number, number[]>();
    patterns.forEach((tokens, k) => {
      const start = this.starts[k];
      setBit(this.finals, start + tokens.length);
      if (tokens[tokens.length - 1] === ANY_RUN) setBit(this.lastStars, start + tokens.length - 1);
      tokens.forEach((token, i) => {
        if (token === ANY_ONE) setBit(anyChar, start + i);
        else if (token === ANY_RUN) setBit(this.stars, start + i);
        else if (token < DENSE_CHARS) {
          if (!denseChars.includes(token)) denseChars.push(token);
        } else {
          const bits = otherBits.get(token);
          if (bits) bits.push(start + i);
          else otherBits.set(token, [start + i]);
        }
      });
    });
    this.rows = new Int32Array((1 + denseChars.length) * words);
    this.rows.set(anyChar, 0);
    denseChars.forEach((char, index) => {
      this.denseRow[char] = (index + 1) * words;
      this.rows.set(anyChar, (index + 1) * words);
    });
    patterns.forEach((tokens, k) =>
      tokens.forEach((token, i) => {
        if (token >= 0 && token < DENSE_CHARS) setBit(this.rows, this.denseRow[token] * WORD_BITS + this.starts[k] + i);
      }),
    );
    for (const [char, bits] of otherBits) {
      const byWord = new Map<number, number>();
      for (const bit of bits) byWord.set(bit >>> 5, (byWord.get(bit >>> 5) ?? 0) | (1 << (bit & 31)));
      this.otherChars.set(char, { words: Int32Array.from(byWord.keys()), bits: Int32Array.from(byWord.values()) });
    }
  }

  /** Whether one of the patterns `selected[0 .. count)` matches the whole text. */
  matches(text: string, selected: Int32Array, count: number): boolean {
    const words = this.words;
    const stars = this.stars;
    const lastStars = this.lastStars;
    let active = this.active;
    let next = this.next;
    active.fill(0);
    let lo = words;
    let hi = -1;
    for (let i = 0; i < count; i++) {
      const start = this.starts[selected[i]];
      setBit(active, start);
      // A star may match nothing: reaching its state reaches the one after it too (never a star).
      if (this.startsWithStar[selected[i]]) setBit(active, start + 1);
      lo = Math.min(lo, start >>> 5);
      hi = Math.max(hi, (start + this.lengths[selected[i]]) >>> 5);
    }
    if (hi < 0) return false;
    for (let w = lo; w <= hi; w++) if ((active[w] & lastStars[w]) !== 0) return true;
    const rows = this.rows;
    const denseRow = this.denseRow;
    for (let position = 0; position < text.length; position++) {
      const char = text.charCodeAt(position);
      let accepting = rows;
      let base = 0;
      if (char < DENSE_CHARS) base = denseRow[char];
      else {
        const other = this.otherChars.get(char);
        if (other) {
          accepting = this.otherRow;
          accepting.set(rows.subarray(lo, hi + 1), lo);
          for (let e = 0; e < other.words.length; e++) accepting[other.words[e]] |= other.bits[e];
        }
      }
      // A token that accepts the character moves its state one on; a star keeps its own.
      let advanceCarry = 0;
      let skipCarry = 0;
      let any = 0;
      let done = 0;
      for (let w = lo; w <= hi; w++) {
        const current = active[w];
        const star = stars[w];
        const advancing = current & accepting[base + w];
        let word = (advancing << 1) | advanceCarry;
        if (star === 0) {
          word |= skipCarry;
          skipCarry = 0;
        } else {
          word |= current & star;
          const atStar = word & star;
          word |= (atStar << 1) | skipCarry;
          skipCarry = atStar >>> (WORD_BITS - 1);
          done |= word & lastStars[w];
        }
        next[w] = word;
        advanceCarry = advancing >>> (WORD_BITS - 1);
        any |= word;
      }
      this.wordSteps += hi - lo + 1;
      if (any === 0) return false;
      if (done !== 0) return true;
      const previous = active;
      active = next;
      next = previous;
    }
    for (let w = lo; w <= hi; w++) if ((active[w] & this.finals[w]) !== 0) return true;
    return false;
  }
}

/**
 * What a pattern's text must satisfy, checked before (and mostly instead of) the automaton; each
 * check is exact: the text has the pattern's length (no star) or at least its non-star tokens; the
 * tokens before the first star match its start and those after the last star its end. Between them,
 * literal segments are found leftmost-first by `indexOf`, which decides the match (a later
 * occurrence of a segment never helps a later one); with an any-one among them, the longest literal
 * run must occur, and the automaton decides.
 */
interface PatternPlan {
  readonly hasStar: boolean;
  readonly minLength: number;
  readonly head: readonly number[];
  readonly tail: readonly number[];
  /** The literal segments between the first and last star, in order; undefined when one has an any-one. */
  readonly middle: readonly string[] | undefined;
  readonly longestLiteral: string;
  /** Its index in the automaton, or -1 when the checks decide. */
  readonly automatonIndex: number;
}

const UNDECIDED = 2;

function planOf(tokens: readonly number[], automatonIndex: (tokens: readonly number[]) => number): PatternPlan {
  const firstStar = tokens.indexOf(ANY_RUN);
  const lastStar = tokens.lastIndexOf(ANY_RUN);
  const minLength = tokens.filter((token) => token !== ANY_RUN).length;
  if (firstStar < 0) return { hasStar: false, minLength, head: tokens, tail: [], middle: [], longestLiteral: '', automatonIndex: -1 };
  const between = tokens.slice(firstStar + 1, lastStar);
  const segments = splitAt(between, ANY_RUN);
  const hasAnyOne = between.includes(ANY_ONE);
  const longestLiteral = segments
    .flatMap((segment) => splitAt(segment, ANY_ONE))
    .map(charsOf)
    .reduce((longest, run) => (run.length > longest.length ? run : longest), '');
  return {
    hasStar: true,
    minLength,
    head: tokens.slice(0, firstStar),
    tail: tokens.slice(lastStar + 1),
    middle: hasAnyOne ? undefined : segments.filter((segment) => segment.length > 0).map(charsOf),
    longestLiteral,
    automatonIndex: hasAnyOne ? automatonIndex(tokens) : -1,
  };
}

function charsOf(tokens: readonly number[]): string {
  return tokens.map((code) => String.fromCharCode(code)).join('');
}

function splitAt(tokens: readonly number[], separator: number): number[][] {
  const runs: number[][] = [[]];
  for (const token of tokens) {
    if (token === separator) runs.push([]);
    else runs[runs.length - 1].push(token);
  }
  return runs;
}

function matchesAt(tokens: readonly number[], text: string, at: number): boolean {
  for (let i = 0; i < tokens.length; i++) if (tokens[i] !== ANY_ONE && text.charCodeAt(at + i) !== tokens[i]) return false;
  return true;
}

/** true or false when the checks decide, UNDECIDED when the automaton must. */
function check(plan: PatternPlan, text: string): boolean | typeof UNDECIDED {
  const length = text.length;
  if (!plan.hasStar) return length === plan.minLength && matchesAt(plan.head, text, 0);
  if (length < plan.minLength || !matchesAt(plan.head, text, 0) || !matchesAt(plan.tail, text, length - plan.tail.length)) return false;
  const end = length - plan.tail.length;
  if (plan.middle) {
    let from = plan.head.length;
    for (const segment of plan.middle) {
      const found = text.indexOf(segment, from);
      if (found < 0 || found + segment.length > end) return false;
      from = found + segment.length;
    }
    return true;
  }
  if (plan.longestLiteral.length > 0) {
    const found = text.indexOf(plan.longestLiteral, plan.head.length);
    if (found < 0 || found + plan.longestLiteral.length > end) return false;
  }
  return UNDECIDED;
}

/** Patterns as token lists, matched against a whole text: the checks first, then one automaton for the patterns they leave. */
class WildcardSet {
  private readonly plans: readonly PatternPlan[];
  private readonly automaton: WildcardAutomaton;
  private readonly selected: Int32Array;

  constructor(patterns: readonly (readonly number[])[]) {
    const needAutomaton: (readonly number[])[] = [];
    this.plans = patterns.map((tokens) => planOf(tokens, (all) => needAutomaton.push(all) - 1));
    this.automaton = new WildcardAutomaton(needAutomaton);
    this.selected = new Int32Array(needAutomaton.length);
  }

  get size(): number {
    return this.plans.length;
  }

  get wordSteps(): number {
    return this.automaton.wordSteps;
  }

  matches(text: string): boolean {
    let count = 0;
    for (const plan of this.plans) {
      const verdict = check(plan, text);
      if (verdict === true) return true;
      if (verdict === UNDECIDED) this.selected[count++] = plan.automatonIndex;
    }
    return count > 0 && this.automaton.matches(text, this.selected, count);
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
 *
 * Cost of one `matches`: the exact checks (a pass over the text per pattern at most, mostly
 * `indexOf`), then for the patterns with a `?` between stars that pass them, at most the text's
 * length times `globStateWords` of the set; `wordSteps` counts the latter.
 */
export class GlobSet {
  private readonly set: WildcardSet;

  constructor(patterns: readonly string[]) {
    this.set = new WildcardSet(patterns.map((pattern) => tokenize(fold(pattern), { anyRun: '*', anyOne: '?' })));
  }

  get size(): number {
    return this.set.size;
  }

  /** Automaton work so far: one per 32-state word per character. */
  get wordSteps(): number {
    return this.set.wordSteps;
  }

  matches(text: string): boolean {
    return this.set.matches(fold(text));
  }
}

/** The most state words the automaton of `patterns` patterns of `length` characters has: what one character of text costs at most. */
export function globStateWords(patterns: number, length: number): number {
  return Math.max(1, Math.ceil((patterns * (length + 1)) / WORD_BITS));
}

/**
 * A SQL `LIKE` pattern, matched in memory as PostgreSQL matches it: `%` any run, `_` exactly one,
 * a backslash makes the next character literal, case-sensitive.
 */
export class LikePattern {
  private readonly set: WildcardSet;

  constructor(like: string) {
    this.set = new WildcardSet([tokenize(like, { anyRun: '%', anyOne: '_', escape: '\\' })]);
  }

  matches(text: string): boolean {
    return this.set.matches(text);
  }
}

function fold(text: string): string {
  return text.toLowerCase();
}

function setBit(words: Int32Array, bit: number): void {
  words[bit >>> 5] |= 1 << (bit & 31);
}
