import { tagKeyLabel } from './tag-key-label';

describe('tagKeyLabel', () => {
  it.each([
    ['browser', 'Browser'],
    ['user', 'User'],
    ['server_name', 'Server'],
    ['os', 'OS'],
    ['os.name', 'Os.Name'],
    ['http.status_code', 'Http.Status Code'],
    ['CUSTOM_tag2x', 'Custom Tag2X'],
  ])('labels %s as %s, as Sentry does', (key, label) => {
    expect(tagKeyLabel(key)).toBe(label);
  });
});
