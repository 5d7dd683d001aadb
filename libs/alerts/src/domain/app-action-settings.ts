import type { AppActionSetting } from './issue-rule';

/** A field of an app's `alert-rule-action` settings form, as its schema declares it. */
interface SettingsField {
  readonly name?: unknown;
  readonly type?: unknown;
  readonly options?: unknown;
}

/**
 * Checks an alert action's settings against the app's `alert-rule-action` schema element
 * (`settings.required_fields` and `settings.optional_fields`): every required field has a value,
 * no field is unknown, and a select with static `options` gets one of them. Answers the problem,
 * or null. An app that declares no such element takes no settings.
 */
export function appSettingsProblem(element: { readonly [key: string]: unknown } | null, settings: readonly AppActionSetting[]): string | null {
  const form = (element?.settings ?? {}) as { required_fields?: unknown; optional_fields?: unknown };
  const fieldsOf = (list: unknown): SettingsField[] => (Array.isArray(list) ? (list.filter((f) => f && typeof f === 'object') as SettingsField[]) : []);
  const required = fieldsOf(form.required_fields);
  const known = new Map([...required, ...fieldsOf(form.optional_fields)].filter((f) => typeof f.name === 'string').map((f) => [f.name as string, f]));
  const given = new Map(settings.map((setting) => [setting.name, setting.value]));
  for (const field of required) {
    const value = given.get(field.name as string);
    if (value === undefined || value === null || value === '') return `settings: ${String(field.name)} is required`;
  }
  for (const [name, value] of given) {
    const field = known.get(name);
    if (!field) return `settings: ${name} is not a setting of this app`;
    if (field.type === 'select' && Array.isArray(field.options) && value !== null && value !== '') {
      const allowed = field.options.map((option) => (Array.isArray(option) ? option[0] : option));
      if (!allowed.some((option) => String(option) === String(value))) return `settings: ${name} must be one of ${allowed.map(String).join(', ')}`;
    }
  }
  return null;
}
