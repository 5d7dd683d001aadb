import { appSettingsProblem } from './app-action-settings';

const element = {
  type: 'alert-rule-action',
  title: 'Page the on-call',
  settings: {
    type: 'alert-rule-settings',
    uri: '/alert-rule-action',
    required_fields: [{ type: 'text', name: 'channel', label: 'Channel' }],
    optional_fields: [
      {
        type: 'select',
        name: 'priority',
        label: 'Priority',
        options: [
          ['high', 'High'],
          ['low', 'Low'],
        ],
      },
      { type: 'select', name: 'team', label: 'Team', uri: '/teams' },
    ],
  },
};

describe('appSettingsProblem', () => {
  it('accepts settings the app declares', () => {
    expect(appSettingsProblem(element, [{ name: 'channel', value: '#ops' }])).toBeNull();
    expect(
      appSettingsProblem(element, [
        { name: 'channel', value: '#ops' },
        { name: 'priority', value: 'high' },
        { name: 'team', value: 'anything' },
      ]),
    ).toBeNull();
  });

  it('names a missing required field, an unknown one and an option the select does not offer', () => {
    expect(appSettingsProblem(element, [])).toBe('settings: channel is required');
    expect(appSettingsProblem(element, [{ name: 'channel', value: '' }])).toBe('settings: channel is required');
    expect(
      appSettingsProblem(element, [
        { name: 'channel', value: '#ops' },
        { name: 'colour', value: 'red' },
      ]),
    ).toBe('settings: colour is not a setting of this app');
    expect(
      appSettingsProblem(element, [
        { name: 'channel', value: '#ops' },
        { name: 'priority', value: 'urgent' },
      ]),
    ).toBe('settings: priority must be one of high, low');
  });

  it('an app without an alert-rule-action element takes no settings', () => {
    expect(appSettingsProblem(null, [])).toBeNull();
    expect(appSettingsProblem(null, [{ name: 'channel', value: '#ops' }])).toBe('settings: channel is not a setting of this app');
  });
});
