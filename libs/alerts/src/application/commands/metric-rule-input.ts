import { DomainError } from '@faultline/kernel';
import type { InstallationLookup } from '@faultline/integrations';
import type { Sql } from '@faultline/platform';
import { type MetricRuleDefinition, validateMetricRule } from '../../domain';
import { type MetricRulesRepository, organizationProjectsBySlug } from '../../infrastructure/metric-rules.repository';
import { parseMetricQuery } from '../metric-query';
import { checkAppActions } from './app-actions';

/**
 * Validates a metric rule body inside the command's transaction: numbers new triggers and actions
 * from the database's sequence (ids a client sends are kept only when they are the rule's own) and
 * resolves project slugs within the organization.
 */
export async function checkedMetricRule(
  tx: Sql,
  rules: MetricRulesRepository,
  installations: InstallationLookup,
  organizationId: string,
  body: Record<string, unknown>,
  ownIds: ReadonlySet<string> = new Set(),
): Promise<{ definition: MetricRuleDefinition; projectIds: string[] }> {
  // Enough ids for every trigger and action twice over: once in validation, once more for any
  // that came with an id that is not the rule's own (or is used twice).
  const triggers = Array.isArray(body.triggers) ? body.triggers.slice(0, 3) : [];
  const actionsOf = (trigger: unknown) =>
    trigger && typeof trigger === 'object' && Array.isArray((trigger as { actions?: unknown }).actions)
      ? Math.min(10, (trigger as { actions: unknown[] }).actions.length)
      : 0;
  const items = triggers.reduce<number>((n, trigger) => n + 1 + actionsOf(trigger), 0);
  const pool = await rules.nextIds(tx, 2 * items);
  const issued = new Set<string>();
  const newId = () => {
    const id = pool.shift();
    if (!id) throw new Error('metric rule id pool exhausted');
    issued.add(id);
    return id;
  };
  const checked = validateMetricRule(body, newId);
  if ('error' in checked) throw DomainError.invalid(checked.error, { field: checked.field });
  const definition = checked.ok;
  parseMetricQuery(definition.query);
  const seen = new Set<string>();
  const keep = (id: string) => {
    const kept = (issued.has(id) || ownIds.has(id)) && !seen.has(id) ? id : newId();
    seen.add(kept);
    return kept;
  };
  for (const trigger of definition.triggers) {
    trigger.id = keep(trigger.id);
    for (const action of trigger.actions) action.id = keep(action.id);
  }
  const bySlug = await organizationProjectsBySlug(tx, organizationId, definition.projects);
  const unknown = definition.projects.find((slug) => !bySlug.has(slug));
  if (unknown) throw DomainError.invalid(`projects: Invalid project ${unknown}`, { field: 'projects' });
  await checkAppActions(
    tx,
    installations,
    organizationId,
    definition.triggers.flatMap((trigger) =>
      trigger.actions.map((action, index) => ({
        where: `triggers[${trigger.label}].actions[${index}]`,
        installationUuid: action.sentryAppInstallationUuid,
        settings: action.settings,
      })),
    ),
    'triggers',
  );
  return { definition, projectIds: definition.projects.map((slug) => bySlug.get(slug) as string) };
}
