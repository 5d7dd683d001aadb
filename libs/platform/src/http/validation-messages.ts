/**
 * class-validator's default messages ("name must be longer than or equal to 1 characters") in the
 * sentences Sentry's API answers (Django REST framework's), which a form can show as they are.
 * Messages a DTO wrote itself pass through unchanged.
 */
const SENTENCES: Record<string, (numbers: string[], message: string) => string> = {
  isLength: lengthSentence,
  minLength: lengthSentence,
  maxLength: lengthSentence,
  isString: () => 'Not a valid string.',
  isBoolean: () => 'Must be a valid boolean.',
  isInt: () => 'A valid integer is required.',
  isNumber: () => 'A valid number is required.',
  min: ([limit]) => `Ensure this value is greater than or equal to ${limit}.`,
  max: ([limit]) => `Ensure this value is less than or equal to ${limit}.`,
  isIn: (_, message) => `Must be one of: ${message.split('following values: ')[1] ?? ''}.`,
  isEnum: (_, message) => `Must be one of: ${message.split('following values: ')[1] ?? ''}.`,
  isUrl: () => 'Enter a valid URL.',
  isEmail: () => 'Enter a valid email address.',
  isArray: () => 'Expected a list of items.',
  isObject: () => 'Expected an object.',
  arrayMaxSize: ([limit]) => `Ensure this field has no more than ${limit} elements.`,
  arrayMinSize: ([limit]) => `Ensure this field has at least ${limit} elements.`,
  isNotEmpty: () => 'This field may not be blank.',
  isDefined: () => 'This field is required.',
  whitelistValidation: () => 'This field is not accepted.',
  nestedValidation: () => 'Expected an object.',
};

function lengthSentence(numbers: string[], message: string): string {
  const longer = /longer than or equal to (\d+)/.exec(message)?.[1];
  const shorter = /shorter than or equal to (\d+)/.exec(message)?.[1];
  if (longer === '1' && !shorter) return 'This field may not be blank.';
  if (longer && shorter) return `Ensure this field has between ${longer} and ${shorter} characters.`;
  if (shorter) return `Ensure this field has no more than ${shorter} characters.`;
  return `Ensure this field has at least ${longer ?? numbers[0]} characters.`;
}

/** class-validator's own wording, recognised so that a DTO's custom message is left alone. */
const DEFAULT_WORDING = /^(each value in )?(nested property )?(property )?\S+ (must|should)/;

export function humanMessage(constraint: string, message: string): string {
  const sentence = SENTENCES[constraint];
  if (!sentence || !DEFAULT_WORDING.test(message)) return message;
  const each = message.startsWith('each value in ') ? 'Each item: ' : '';
  const text = sentence(message.match(/\d+/g) ?? [], message);
  return each ? `${each}${text.charAt(0).toLowerCase()}${text.slice(1)}` : text;
}
