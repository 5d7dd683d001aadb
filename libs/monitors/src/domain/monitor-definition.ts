import { isValidSlug, slugify } from '@faultline/kernel';
import { apiMonitorConfig, type MonitorConfig } from './monitor-config';

/** Sentry's limits of a monitor's fields (`MonitorValidator`). */
export const MONITOR_LIMITS = { maxNameLength: 128, maxSlugLength: 50 } as const;

export type MonitorStatus = 'active' | 'disabled';

/** What the API sets of a monitor. */
export interface MonitorDefinition {
  readonly name: string;
  readonly slug: string;
  readonly status: MonitorStatus;
  readonly isMuted: boolean;
  readonly config: MonitorConfig;
}

export interface MonitorInput {
  readonly name?: unknown;
  readonly slug?: unknown;
  readonly status?: unknown;
  readonly isMuted?: unknown;
  readonly config?: unknown;
}

/**
 * A monitor as the API defines it: all of it on create (name and config required, the slug
 * derived from the name unless given), or the given fields over the current ones on update.
 */
export function defineMonitor(input: MonitorInput, current?: MonitorDefinition): { ok: MonitorDefinition } | { problem: string } {
  const name = input.name ?? current?.name;
  if (typeof name !== 'string' || name.trim() === '' || name.length > MONITOR_LIMITS.maxNameLength)
    return { problem: `name is required, at most ${MONITOR_LIMITS.maxNameLength} characters` };
  const slug = input.slug ?? current?.slug ?? slugify(name);
  if (typeof slug !== 'string' || !isValidSlug(slug))
    return { problem: `slug must be at most ${MONITOR_LIMITS.maxSlugLength} lowercase letters, digits, "-" or "_", not only digits` };
  const status = input.status ?? current?.status ?? 'active';
  if (status !== 'active' && status !== 'disabled') return { problem: 'status must be "active" or "disabled"' };
  const isMuted = input.isMuted ?? current?.isMuted ?? false;
  if (typeof isMuted !== 'boolean') return { problem: 'isMuted must be a boolean' };
  let config = current?.config;
  if (input.config !== undefined) {
    // A new schedule without its type takes the type its shape says, not the current one.
    const base =
      current && isObject(input.config) && input.config.schedule !== undefined && input.config.schedule_type === undefined
        ? { ...current.config, schedule_type: undefined }
        : current?.config;
    const checked = apiMonitorConfig(base && isObject(input.config) ? { ...base, ...input.config } : input.config);
    if ('problem' in checked) return { problem: `config: ${checked.problem}` };
    config = checked.ok;
  }
  if (!config) return { problem: 'config is required' };
  return { ok: { name: name.trim(), slug, status, isMuted, config } };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
