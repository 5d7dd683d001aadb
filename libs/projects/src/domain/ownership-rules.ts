/**
 * Sentry's issue ownership rules: one rule a line, `<type>:<pattern> <owner> <owner>…`, where the
 * type is `path` (the default when a line names none), `module`, `url`, `tags.<key>` or
 * `codeowners`; an owner is `#team-slug` or a member's e-mail address; a line starting with `#` is
 * a comment. A pattern with spaces is written in double quotes (`path:"My Documents/*"`).
 */
export const OWNERSHIP_VERSION = 1;

/**
 * What one project may write. The text is Sentry's limit; the rest bounds what matching the rules
 * against a new issue's event costs (see MAX_OWNERSHIP_WORD_STEPS_PER_EVENT in ownership-matcher.ts).
 */
export const OWNERSHIP_LIMITS = Object.freeze({
  maxRawLength: 100_000,
  maxRules: 300,
  maxPatternLength: 200,
  /** All patterns together: the automaton's states, which every matched character steps through. */
  maxPatternCharacters: 10_000,
  maxOwnersPerRule: 20,
  maxTagKeyLength: 200,
});

export const OWNERSHIP_MATCHER_TYPES = ['path', 'module', 'url', 'codeowners'] as const;
export type OwnershipMatcherType = (typeof OWNERSHIP_MATCHER_TYPES)[number] | `tags.${string}`;

export interface OwnershipMatcher {
  readonly type: OwnershipMatcherType;
  readonly pattern: string;
}

export interface OwnershipOwner {
  readonly type: 'team' | 'user';
  /** A team's slug, or a user's e-mail address in lower case (e-mail addresses compare so). */
  readonly identifier: string;
}

export interface OwnershipRule<Owner extends OwnershipOwner = OwnershipOwner> {
  readonly matcher: OwnershipMatcher;
  readonly owners: readonly Owner[];
}

/** The rules as Sentry stores and answers them (`schema`). */
export interface OwnershipSchema<Owner extends OwnershipOwner = OwnershipOwner> {
  readonly $version: typeof OWNERSHIP_VERSION;
  readonly rules: ReadonlyArray<OwnershipRule<Owner>>;
}

export type ParsedOwnershipRules =
  { readonly ok: true; readonly rules: OwnershipRule[] } | { readonly ok: false; readonly error: string; readonly line: number };

const KNOWN_TYPES: ReadonlySet<string> = new Set(OWNERSHIP_MATCHER_TYPES);
const TAGS_PREFIX = 'tags.';

class RuleSyntaxError extends Error {
  constructor(
    message: string,
    readonly column: number,
  ) {
    super(message);
  }
}

/**
 * The rules of a text, or the first error with its line. Errors read as Sentry's
 * (`Parse error: … (line 3, column 7)`), so clients that point at the line find it.
 */
export function parseOwnershipRules(raw: string): ParsedOwnershipRules {
  if (raw.length > OWNERSHIP_LIMITS.maxRawLength) {
    return { ok: false, error: `Raw needs to be <= ${OWNERSHIP_LIMITS.maxRawLength} characters in length`, line: 0 };
  }
  const rules: OwnershipRule[] = [];
  let patternCharacters = 0;
  const lines = raw.split(/\r\n|\r|\n/);
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    const start = skipBlanks(line, 0);
    if (start === line.length || line[start] === '#') continue;
    try {
      const rule = parseRule(line, start);
      if (rules.length === OWNERSHIP_LIMITS.maxRules) throw new RuleSyntaxError(`at most ${OWNERSHIP_LIMITS.maxRules} rules`, start);
      patternCharacters += rule.matcher.pattern.length;
      if (patternCharacters > OWNERSHIP_LIMITS.maxPatternCharacters) {
        throw new RuleSyntaxError(`the patterns together may have at most ${OWNERSHIP_LIMITS.maxPatternCharacters} characters`, start);
      }
      rules.push(rule);
    } catch (error) {
      if (!(error instanceof RuleSyntaxError)) throw error;
      return { ok: false, error: `Parse error: ${error.message} (line ${index + 1}, column ${error.column + 1})`, line: index + 1 };
    }
  }
  return { ok: true, rules };
}

export function ownershipSchema<Owner extends OwnershipOwner>(rules: ReadonlyArray<OwnershipRule<Owner>>): OwnershipSchema<Owner> {
  return { $version: OWNERSHIP_VERSION, rules };
}

function parseRule(line: string, start: number): OwnershipRule {
  const { type, patternAt } = matcherType(line, start);
  const { pattern, end } = line[patternAt] === '"' ? quoted(line, patternAt) : { pattern: word(line, patternAt), end: wordEnd(line, patternAt) };
  if (pattern.length === 0) throw new RuleSyntaxError('the rule has no pattern', patternAt);
  if (pattern.length > OWNERSHIP_LIMITS.maxPatternLength) {
    throw new RuleSyntaxError(`a pattern may have at most ${OWNERSHIP_LIMITS.maxPatternLength} characters`, patternAt);
  }
  if (end < line.length && !isBlank(line[end])) throw new RuleSyntaxError('expected a space after the pattern', end);
  const owners: OwnershipOwner[] = [];
  let at = skipBlanks(line, end);
  while (at < line.length) {
    const token = word(line, at);
    if (owners.length === OWNERSHIP_LIMITS.maxOwnersPerRule)
      throw new RuleSyntaxError(`a rule may have at most ${OWNERSHIP_LIMITS.maxOwnersPerRule} owners`, at);
    if (token.startsWith('#')) {
      if (token.length === 1) throw new RuleSyntaxError('a team owner needs its slug after #', at);
      owners.push({ type: 'team', identifier: token.slice(1) });
    } else owners.push({ type: 'user', identifier: token.toLowerCase() });
    at = skipBlanks(line, wordEnd(line, at));
  }
  if (owners.length === 0) throw new RuleSyntaxError("the rule has no owners (#team-slug or a member's e-mail address)", line.length);
  return { matcher: { type, pattern }, owners };
}

/**
 * The type a line names before its first colon, or `path` when it names none. A word that could be
 * a type but is none is an error rather than part of a path (Sentry takes `pth:src/*` as a path
 * that never matches); a one-letter prefix stays a Windows drive (`C:\src\*`).
 */
function matcherType(line: string, start: number): { type: OwnershipMatcherType; patternAt: number } {
  if (line[start] === '"') return { type: 'path', patternAt: start };
  const token = word(line, start);
  const colon = token.indexOf(':');
  if (colon < 0) return { type: 'path', patternAt: start };
  const prefix = token.slice(0, colon);
  if (KNOWN_TYPES.has(prefix)) return { type: prefix as OwnershipMatcherType, patternAt: start + colon + 1 };
  if (prefix.startsWith(TAGS_PREFIX)) {
    const key = prefix.slice(TAGS_PREFIX.length);
    if (key.length === 0) throw new RuleSyntaxError('tags. needs a tag key, e.g. tags.browser:Chrome*', start);
    if (key.length > OWNERSHIP_LIMITS.maxTagKeyLength)
      throw new RuleSyntaxError(`a tag key may have at most ${OWNERSHIP_LIMITS.maxTagKeyLength} characters`, start);
    return { type: `tags.${key}`, patternAt: start + colon + 1 };
  }
  if (prefix.length > 1 && isTypeLike(prefix)) {
    throw new RuleSyntaxError(`unknown type "${prefix}": use path, module, url, tags.<key> or codeowners`, start);
  }
  return { type: 'path', patternAt: start };
}

function isTypeLike(prefix: string): boolean {
  for (let i = 0; i < prefix.length; i++) {
    const code = prefix.charCodeAt(i);
    const letter = (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
    if (!letter && !(i > 0 && (prefix[i] === '_' || prefix[i] === '-' || prefix[i] === '.' || (code >= 48 && code <= 57)))) return false;
  }
  return true;
}

/** A double-quoted pattern: `\"` and `\\` stand for themselves, the rest is literal. */
function quoted(line: string, at: number): { pattern: string; end: number } {
  let pattern = '';
  for (let i = at + 1; i < line.length; i++) {
    const char = line[i];
    if (char === '"') return { pattern, end: i + 1 };
    if (char === '\\' && (line[i + 1] === '"' || line[i + 1] === '\\')) pattern += line[++i];
    else pattern += char;
  }
  throw new RuleSyntaxError('the quoted pattern is not closed', at);
}

function isBlank(char: string): boolean {
  return char === ' ' || char === '\t';
}

function skipBlanks(line: string, at: number): number {
  while (at < line.length && isBlank(line[at])) at++;
  return at;
}

function wordEnd(line: string, at: number): number {
  while (at < line.length && !isBlank(line[at])) at++;
  return at;
}

function word(line: string, at: number): string {
  return line.slice(at, wordEnd(line, at));
}
