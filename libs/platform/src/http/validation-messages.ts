/**
 * class-validator's default messages ("name must be longer than or equal to 1 characters") in the
 * sentences Sentry's API answers (Django REST framework's), which a form can show as they are.
 * Only the default wording of each constraint is recognised: a DTO's own message passes unchanged.
 */
const SENTENCES: Record<string, [RegExp, (message: string) => string]> = {
  isLength: [/ than or equal to \d+/, lengthSentence],
  minLength: [/ than or equal to \d+/, lengthSentence],
  maxLength: [/ than or equal to \d+/, lengthSentence],
  isString: [/ must be a string$/, () => 'Not a valid string.'],
  isBoolean: [/ must be a boolean value$/, () => 'Must be a valid boolean.'],
  isInt: [/ must be an integer number$/, () => 'A valid integer is required.'],
  isNumber: [/ must be a number conforming/, () => 'A valid number is required.'],
  min: [/ must not be less than (-?[\d.]+)$/, (message) => `Ensure this value is greater than or equal to ${lastNumber(message)}.`],
  max: [/ must not be greater than (-?[\d.]+)$/, (message) => `Ensure this value is less than or equal to ${lastNumber(message)}.`],
  isIn: [/ must be one of the following values: /, (message) => `Must be one of: ${message.split('following values: ')[1]}.`],
  isEnum: [/ must be one of the following values: /, (message) => `Must be one of: ${message.split('following values: ')[1]}.`],
  isUrl: [/ must be a URL address$/, () => 'Enter a valid URL.'],
  isEmail: [/ must be an email$/, () => 'Enter a valid email address.'],
  isArray: [/ must be an array$/, () => 'Expected a list of items.'],
  isObject: [/ must be an object$/, () => 'Expected an object.'],
  nestedValidation: [/ must be either object or array$/, () => 'Expected an object.'],
  arrayMaxSize: [/ must contain no more than \d+ elements$/, (message) => `Ensure this field has no more than ${lastNumber(message)} elements.`],
  arrayMinSize: [/ must contain at least \d+ elements$/, (message) => `Ensure this field has at least ${lastNumber(message)} elements.`],
  isNotEmpty: [/ should not be empty$/, () => 'This field may not be blank.'],
  isDefined: [/ should not be null or undefined$/, () => 'This field is required.'],
  whitelistValidation: [/^property \S+ should not exist$/, () => 'This field is not accepted.'],
};

const lastNumber = (message: string) => /(-?[\d.]+)\D*$/.exec(message)?.[1] ?? '';

function lengthSentence(message: string): string {
  const longer = /longer than or equal to (\d+)/.exec(message)?.[1];
  const shorter = /shorter than or equal to (\d+)/.exec(message)?.[1];
  if (longer && shorter) return `Ensure this field has between ${longer} and ${shorter} characters.`;
  if (shorter) return `Ensure this field has no more than ${shorter} characters.`;
  if (longer === '1') return 'This field may not be blank.';
  return `Ensure this field has at least ${longer} characters.`;
}

export function humanMessage(constraint: string, message: string): string {
  const known = SENTENCES[constraint];
  if (!known || !known[0].test(message)) return message;
  const text = known[1](message);
  return message.startsWith('each value in ') ? `Each item: ${text.charAt(0).toLowerCase()}${text.slice(1)}` : text;
}
