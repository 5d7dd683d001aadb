// Relay's legacy data scrubbing rules (`relay-pii`: `convert.rs` builds them from a project's
// settings, `builtin.rs` names them, `regexes.rs` matches them), as Sentry applies them to every
// event when data scrubbing is on. Every matcher here runs in time linear in the text: each regular
// expression is bounded or deterministic (no two quantifiers can share a character), and the two
// rules whose regex could re-scan a text (`token…=`, e-mail addresses) are hand-matched in one pass.

/** What a scrubbed value is replaced with, as Sentry shows it. */
export const FILTERED = '[Filtered]';

/**
 * `PASSWORD_KEY_REGEX` of Relay without its `token…[:=]` part: literal alternatives and anchored
 * whole words, so each position is tried against a bounded set of literals.
 */
const PASSWORD_WORDS = /password|secret|passwd|api[-_]key|apikey|auth|credentials|mysql_pwd|privatekey|private[-_]key|^otp$|^two[-_]factor$/i;
const TOKEN = /token/gi;
const SPACE = /\s/;

/** `token[^\s]*[:=]`: the first `token` of each run of non-space characters decides for the whole run, so one pass suffices. */
function hasTokenAssignment(text: string): boolean {
  TOKEN.lastIndex = 0;
  for (let found = TOKEN.exec(text); found; found = TOKEN.exec(text)) {
    let index = TOKEN.lastIndex;
    for (; index < text.length && !SPACE.test(text[index]); index++) {
      if (text[index] === ':' || text[index] === '=') return true;
    }
    TOKEN.lastIndex = index;
  }
  return false;
}

/** Relay's `@password` test of a key or a string value (case-insensitive). */
export function isPasswordLike(text: string): boolean {
  return PASSWORD_WORDS.test(text) || hasTokenAssignment(text);
}

/** Relay's `TOKEN_KEY_REGEX`: a key containing `token` makes its value sensitive (the value itself is not tested). */
export const isTokenKey = (key: string): boolean => /token/i.test(key);

/** Session and CSRF cookies of popular frameworks, filtered whatever their value (Relay's `SENSITIVE_COOKIES`). */
export const SENSITIVE_COOKIES = new Set([
  'sentrysid',
  'sudo',
  'su',
  'session',
  '__session',
  'sessionid',
  'user_session',
  'symfony',
  'phpsessid',
  'fasthttpsessionid',
  'mysession',
  'irissessionid',
  '_vercel_jwt',
  'csrf',
  'xsrf',
  '_xsrf',
  '_csrf',
  'csrf-token',
  'csrf_token',
  'xsrf-token',
  'xsrf_token',
  'fastcsrf',
  '_iris_csrf',
]);

/** A part of a text to redact: [start, end) in the text, replaced by `text`. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** A rule that finds parts of a text, with the name Sentry's remarks give it and what replaces a part. */
export interface ValueRule {
  readonly name: string;
  readonly replacement: string;
  /** A cheap test that the rule cannot match, to skip the search on most texts. */
  readonly mayMatch: (text: string) => boolean;
  readonly find: (text: string) => Span[];
}

/** Whether a global regex matches anywhere: the same search as finding, without building matches (most texts have none). */
const matches = (regex: RegExp) => (text: string) => {
  regex.lastIndex = 0;
  const found = regex.test(text);
  regex.lastIndex = 0;
  return found;
};
/** IBANs start with a country's two capitals and two digits: a cheaper search first. */
const IBAN_START = /[A-Z]{2}\d\d/;

/** Every match of a global regex, or of one of its groups (whose start is found by the group's text, which ends the match). */
function matchesOf(regex: RegExp, group = 0): (text: string) => Span[] {
  return (text) => {
    const spans: Span[] = [];
    for (const match of text.matchAll(regex)) {
      const part = match[group];
      if (part === undefined || part === '') continue;
      const start = group === 0 ? match.index : match.index + match[0].lastIndexOf(part);
      spans.push({ start, end: start + part.length });
    }
    return spans;
  };
}

// The expressions are Relay's, written for JavaScript: `\b` and classes are ASCII in both.
const CREDITCARD = /\b(?:3[47]\d|4\d{3}|5[1-5]\d\d|65\d\d|6011)(?:[-\s]?\d){12}\b/g;
const IBAN =
  /\b(?:AT|AD|AE|AL|AZ|BA|BE|BG|BH|BR|BY|CH|CR|CY|CZ|DE|DK|DO|EE|EG|ES|FI|FO|FR|GB|GE|GI|GL|GR|GT|HR|HU|IE|IL|IQ|IS|IT|JO|KW|KZ|LB|LC|LI|LT|LU|LV|LY|MC|MD|ME|MK|MR|MT|MU|NL|NO|PK|PL|PS|PT|QA|RO|RU|RS|SA|SC|SE|SI|SK|SM|ST|SV|TL|TN|TR|UA|VA|VG|XK|DZ|AO|BJ|BF|BI|CV|CM|CF|TD|KM|CG|CI|DJ|GQ|GA|GW|HN|IR|MG|ML|MA|MZ|NI|NE|SN|TG)\d{2}[a-zA-Z0-9]{11,29}\b/g;
const US_SSN = /\b[0-9]{3}-[0-9]{2}-[0-9]{4}\b/g;
/** Legacy Sentry's `URL_PASSWORD_RE` (`@urlauth:legacy`): the password of `scheme://user:password@`. */
const URL_PASSWORD = /\b((?:[a-z0-9]+:)?\/\/[a-zA-Z0-9%_.-]+:)([a-zA-Z0-9%_.-]+)@/g;
const BEARER = /\bBearer\s+[^\s]+/gi;
const IPV4 =
  /\b(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\b/g;
/** Relay's IPv6 expression (its `ip!` macros written out): bounded alternatives between separators; the address is group 1. */
// prettier-ignore
const IPV6 = /(?:\s|[!-/:-@[-`{-~]|^)((?:[0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}|(?:[0-9a-fA-F]{1,4}:){1,7}:|(?:[0-9a-fA-F]{1,4}:){1,6}:[0-9a-fA-F]{1,4}|(?:[0-9a-fA-F]{1,4}:){1,5}(?::[0-9a-fA-F]{1,4}){1,2}|(?:[0-9a-fA-F]{1,4}:){1,4}(?::[0-9a-fA-F]{1,4}){1,3}|(?:[0-9a-fA-F]{1,4}:){1,3}(?::[0-9a-fA-F]{1,4}){1,4}|(?:[0-9a-fA-F]{1,4}:){1,2}(?::[0-9a-fA-F]{1,4}){1,5}|[0-9a-fA-F]{1,4}:(?::[0-9a-fA-F]{1,4}){1,6}|:(?:(?::[0-9a-fA-F]{1,4}){1,7}|:)|fe80:(?::[0-9a-fA-F]{1,4}){0,4}%[0-9a-zA-Z]{1,}|::(?:ffff(?::0{1,4}){0,1}:){0,1}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)|(?:[0-9a-fA-F]{1,4}:){1,4}:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?))(?=\s|[!-/:-@[-`{-~]|$)/gi;

/** PEM key bodies (`@pemkey`): the text between a `BEGIN … KEY` line and its `END … KEY`, found with one forward search each. */
const PEM_BEGIN = /-----BEGIN[A-Z ]+(?:PRIVATE|PUBLIC) KEY-----[\t ]*\r?\n?/g;
const PEM_END = /\r?\n?-----END[A-Z ]+(?:PRIVATE|PUBLIC) KEY-----/g;
function pemBodies(text: string): Span[] {
  const spans: Span[] = [];
  PEM_BEGIN.lastIndex = 0;
  for (let begin = PEM_BEGIN.exec(text); begin; begin = PEM_BEGIN.exec(text)) {
    PEM_END.lastIndex = PEM_BEGIN.lastIndex;
    const end = PEM_END.exec(text);
    if (!end) break;
    if (end.index > PEM_BEGIN.lastIndex) spans.push({ start: PEM_BEGIN.lastIndex, end: end.index });
    PEM_BEGIN.lastIndex = PEM_END.lastIndex;
  }
  return spans;
}

const EMAIL_LOCAL = /[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]/;
const WORD_CHAR = /\w/;
/** The part of Relay's `EMAIL_REGEX` after the `@`; sticky, and deterministic between its dots. */
const EMAIL_DOMAIN = /[a-zA-Z0-9-]+(?:\.[a-zA-Z0-9-]+)*\.[a-zA-Z]{2,}\b/y;
/** Relay's `EMAIL_REGEX`, matched from each `@` outwards, so that no text is scanned twice. */
function emails(text: string): Span[] {
  const spans: Span[] = [];
  let floor = 0;
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
    let start = at;
    while (start > floor && EMAIL_LOCAL.test(text[start - 1])) start--;
    // `\b` before the local part: the first place where a word starts or ends.
    while (start < at && (start === 0 ? false : WORD_CHAR.test(text[start - 1])) === WORD_CHAR.test(text[start])) start++;
    EMAIL_DOMAIN.lastIndex = at + 1;
    const domain = EMAIL_DOMAIN.exec(text);
    if (start < at && domain) {
      spans.push({ start, end: EMAIL_DOMAIN.lastIndex });
      floor = EMAIL_DOMAIN.lastIndex;
    } else {
      floor = at + 1;
    }
  }
  return spans;
}

const rule = (name: string, replacement: string, mayMatch: (text: string) => boolean, find: (text: string) => Span[]): ValueRule => ({
  name,
  replacement,
  mayMatch,
  find,
});

/** `@common:filter` as legacy scrubbing applies it to values, in Relay's order (its `@userpath:filter` names no rule, so it does nothing). */
export const COMMON_VALUE_RULES: readonly ValueRule[] = [
  rule('@creditcard:filter', FILTERED, matches(CREDITCARD), matchesOf(CREDITCARD)),
  rule('@iban:filter', FILTERED, (text) => IBAN_START.test(text) && matches(IBAN)(text), matchesOf(IBAN)),
  rule('@pemkey:filter', FILTERED, (text) => text.includes('-----BEGIN'), pemBodies),
  rule('@urlauth:legacy', FILTERED, (text) => text.includes('//') && matches(URL_PASSWORD)(text), matchesOf(URL_PASSWORD, 2)),
  // `@password` finds bearer tokens in values; the rest of it looks at keys (isPasswordLike).
  rule('@password:filter', FILTERED, (text) => /bearer/i.test(text), matchesOf(BEARER)),
  rule('@usssn:filter', FILTERED, matches(US_SSN), matchesOf(US_SSN)),
];

/** What Relay applies to the formatted message, which legacy scrubbing otherwise leaves alone: replacements that keep it readable. */
export const REPLACE_ONLY_RULES: readonly ValueRule[] = [
  rule('@email:replace', '[email]', (text) => text.includes('@'), emails),
  rule('@creditcard:replace', '[creditcard]', matches(CREDITCARD), matchesOf(CREDITCARD)),
  rule('@iban:replace', '[iban]', (text) => IBAN_START.test(text) && matches(IBAN)(text), matchesOf(IBAN)),
  rule('@usssn:replace', '[us-ssn]', matches(US_SSN), matchesOf(US_SSN)),
  rule('@bearer:replace', '[token]', (text) => /bearer/i.test(text), matchesOf(BEARER)),
];

/** `@ip:replace`, which `scrubIPAddresses` applies to every value. */
export const IP_RULE: ValueRule = rule(
  '@ip:replace',
  '[ip]',
  (text) => (text.includes('.') && matches(IPV4)(text)) || (text.includes(':') && matches(IPV6)(text)),
  (text) => [...matchesOf(IPV4)(text), ...matchesOf(IPV6, 1)(text)],
);

const REPLACEMENTS = [FILTERED, ...REPLACE_ONLY_RULES.map((r) => r.replacement), IP_RULE.replacement];

/** A value without the texts scrubbing put in, so matching it again (a second pass) finds only what the sender wrote. */
export function withoutReplacements(value: string): string {
  return value.includes('[') ? REPLACEMENTS.reduce((text, replacement) => text.split(replacement).join(''), value) : value;
}
