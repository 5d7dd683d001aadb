import { humanMessage } from './validation-messages';

describe('humanMessage', () => {
  it.each([
    ['isLength', 'name must be longer than or equal to 1 characters', 'This field may not be blank.'],
    ['isLength', 'name must be shorter than or equal to 50 characters', 'Ensure this field has no more than 50 characters.'],
    ['isLength', 'name must be longer than or equal to 3 and shorter than or equal to 50 characters', 'Ensure this field has between 3 and 50 characters.'],
    ['isUrl', 'url must be a URL address', 'Enter a valid URL.'],
    ['isIn', 'plan must be one of the following values: free, business', 'Must be one of: free, business.'],
    ['max', 'count must not be greater than 100', 'Ensure this value is less than or equal to 100.'],
    ['whitelistValidation', 'property colour should not exist', 'This field is not accepted.'],
    ['isString', 'each value in features must be a string', 'Each item: not a valid string.'],
  ])('%s: "%s" reads "%s"', (constraint, message, expected) => {
    expect(humanMessage(constraint, message)).toBe(expected);
  });

  it('leaves a message the DTO wrote itself alone', () => {
    const custom = 'slug must be lowercase letters, numbers, - or _, and not only digits';
    expect(humanMessage('matches', custom)).toBe(custom);
    expect(humanMessage('isUrl', 'Enter an https:// address.')).toBe('Enter an https:// address.');
  });
});

describe('humanMessage on a custom message with a known constraint', () => {
  it('keeps it when it is not the default wording', () => {
    expect(humanMessage('isIn', 'plan must be free or business')).toBe('plan must be free or business');
    expect(humanMessage('isLength', 'each pattern must be 1 to 200 characters')).toBe('each pattern must be 1 to 200 characters');
  });
});
