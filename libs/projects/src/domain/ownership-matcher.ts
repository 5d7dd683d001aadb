import { GlobSet, globStateWords } from '@faultline/kernel';
import { OWNERSHIP_LIMITS, type OwnershipOwner, type OwnershipRule } from './ownership-rules';

/** What rules are matched against: an event's stack frames, request URL and tags. */
export interface OwnershipSubject {
  /** Frames' `filename` and `abs_path`, the thrown exception's innermost frame first. */
  readonly paths: readonly string[];
  /** Frames' `module`, in the same order. */
  readonly modules: readonly string[];
  readonly url?: string;
  readonly tags: ReadonlyArray<readonly [string, string]>;
}

/**
 * How much of an event the rules read: the first distinct paths and modules (an event may carry
 * thousands of frames; the first are the thrown exception's innermost, where owners are decided),
 * and texts no longer than a stored frame's path; longer ones are not matched.
 */
export const OWNERSHIP_SUBJECT_LIMITS = Object.freeze({ maxPaths: 20, maxModules: 20, maxTextLength: 512, maxUrlLength: 2048 });

/** The most state words of all rules' automata together: a word per 32 pattern characters, plus one a rule. */
const MAX_RULE_STATE_WORDS = globStateWords(1, OWNERSHIP_LIMITS.maxPatternCharacters) + OWNERSHIP_LIMITS.maxRules;

/**
 * The most automaton work (`wordSteps`) matching one event takes: the most characters of one kind
 * of text (paths; twice over, as case folding may lengthen a text) times every rule's state words,
 * about 13 million, paid once per new issue, not per event, on the processing worker's thread: at
 * 40 paths of 1,024 characters the spec's adversarial rules took 25 million steps, half a second. Most patterns are decided by exact checks (fixed ends and
 * `indexOf`) and cost none of it.
 */
export const MAX_OWNERSHIP_WORD_STEPS_PER_EVENT =
  2 * Math.max(OWNERSHIP_SUBJECT_LIMITS.maxPaths * OWNERSHIP_SUBJECT_LIMITS.maxTextLength, OWNERSHIP_SUBJECT_LIMITS.maxUrlLength) * MAX_RULE_STATE_WORDS;

interface CompiledRule<Owner extends OwnershipOwner> {
  readonly rule: OwnershipRule<Owner>;
  readonly glob: GlobSet;
  /** Paths compare with `/` for `\`, so a Windows frame matches `src/*`. */
  readonly normalisePath: boolean;
}

/**
 * A project's rules made ready for matching, once per set of rules. Patterns are Sentry's globs
 * (`*` any run, `?` one character, case-insensitive) over the whole text, matched in linear time
 * through the kernel's GlobSet, never a regular expression.
 */
export class OwnershipRulesMatcher<Owner extends OwnershipOwner = OwnershipOwner> {
  private readonly compiled: ReadonlyArray<CompiledRule<Owner>>;

  constructor(rules: ReadonlyArray<OwnershipRule<Owner>>) {
    this.compiled = rules.map((rule) => {
      const normalisePath = rule.matcher.type === 'path' || rule.matcher.type === 'codeowners' || rule.matcher.type === 'module';
      return { rule, normalisePath, glob: new GlobSet([normalisePath ? slashes(rule.matcher.pattern) : rule.matcher.pattern]) };
    });
  }

  /** Automaton work so far, over all rules. */
  get wordSteps(): number {
    return this.compiled.reduce((sum, { glob }) => sum + glob.wordSteps, 0);
  }

  /**
   * The rules the subject matches, the last of the text first: as in Sentry, a later rule takes
   * precedence over an earlier one, so its first owner is the one an issue is assigned to.
   */
  matching(subject: OwnershipSubject): Array<OwnershipRule<Owner>> {
    const texts = boundedTexts(subject);
    const matched: Array<OwnershipRule<Owner>> = [];
    for (let index = this.compiled.length - 1; index >= 0; index--) {
      const { rule, glob, normalisePath } = this.compiled[index];
      const candidates = textsFor(rule.matcher.type, texts);
      if (candidates.some((text) => glob.matches(normalisePath ? slashes(text) : text))) matched.push(rule);
    }
    return matched;
  }
}

interface BoundedTexts {
  readonly paths: readonly string[];
  readonly modules: readonly string[];
  readonly urls: readonly string[];
  readonly tags: ReadonlyArray<readonly [string, string]>;
}

function boundedTexts(subject: OwnershipSubject): BoundedTexts {
  const { maxPaths, maxModules, maxTextLength, maxUrlLength } = OWNERSHIP_SUBJECT_LIMITS;
  const fitting = (texts: readonly string[], most: number) =>
    [...new Set(texts.filter((text) => text.length > 0 && text.length <= maxTextLength))].slice(0, most);
  return {
    paths: fitting(subject.paths, maxPaths),
    modules: fitting(subject.modules, maxModules),
    urls: subject.url && subject.url.length <= maxUrlLength ? [subject.url] : [],
    tags: subject.tags.filter(([, value]) => value.length <= maxTextLength),
  };
}

function textsFor(type: string, texts: BoundedTexts): readonly string[] {
  switch (type) {
    case 'path':
    case 'codeowners':
      return texts.paths;
    case 'module':
      return texts.modules;
    case 'url':
      return texts.urls;
    default: {
      const key = type.slice('tags.'.length);
      return texts.tags.filter(([tag]) => tag === key).map(([, value]) => value);
    }
  }
}

function slashes(text: string): string {
  return text.replaceAll('\\', '/');
}
