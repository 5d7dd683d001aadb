import { DomainError } from '@faultline/kernel';
import {
  ownershipSchema,
  parseOwnershipRules,
  type ParsedOwnershipRules,
  type OwnershipOwner,
  type OwnershipRule,
  type OwnershipSchema,
} from './ownership-rules';

/** Sentry's auto-assignment choices. Suspect commits need commit authorship Faultline does not track, so that one is refused. */
export const AUTO_ASSIGNMENT = Object.freeze({ issueOwner: 'Auto Assign to Issue Owner', off: 'Turn off Auto-Assignment' });
const SUSPECT_COMMITS = 'Auto Assign to Suspect Commits';

/** An owner as stored: what the user wrote and the id it named when the rules were saved. */
export interface ResolvedOwnershipOwner extends OwnershipOwner {
  readonly id: string;
}

export interface ProjectOwnershipSettings {
  /** The text the user wrote; null when it is blank. */
  readonly raw: string | null;
  readonly schema: OwnershipSchema<ResolvedOwnershipOwner> | null;
  readonly fallthrough: boolean;
  readonly autoAssignment: boolean;
}

/** A project whose rules were never saved: Sentry's defaults. */
export const DEFAULT_PROJECT_OWNERSHIP: ProjectOwnershipSettings = Object.freeze({ raw: null, schema: null, fallthrough: true, autoAssignment: true });

/** Sentry's PUT body: absent fields stay as they are. */
export interface OwnershipUpdate {
  readonly raw?: string;
  readonly fallthrough?: boolean;
  readonly autoAssignment?: string;
  readonly codeownersAutoSync?: boolean;
}

export interface PlannedOwnershipUpdate {
  /** The rules of a new text (empty for a blank one), or undefined when the text is not changed. */
  readonly rules?: OwnershipRule[];
  readonly raw?: string | null;
  readonly fallthrough?: boolean;
  readonly autoAssignment?: boolean;
}

const invalid = (field: string, message: string) => DomainError.invalid(message, { [field]: [message] });

/** Checks a PUT body before anything is read: the text parses, and the choices are ones Faultline honours. */
export function planOwnershipUpdate(update: OwnershipUpdate): PlannedOwnershipUpdate {
  let autoAssignment: boolean | undefined;
  if (update.autoAssignment !== undefined) {
    if (update.autoAssignment === SUSPECT_COMMITS) {
      throw invalid('autoAssignment', 'Auto Assign to Suspect Commits is not available: Faultline does not know the authors of commits.');
    }
    if (update.autoAssignment !== AUTO_ASSIGNMENT.issueOwner && update.autoAssignment !== AUTO_ASSIGNMENT.off) {
      throw invalid('autoAssignment', 'Invalid selection.');
    }
    autoAssignment = update.autoAssignment === AUTO_ASSIGNMENT.issueOwner;
  }
  if (update.codeownersAutoSync === true) throw invalid('codeownersAutoSync', 'CODEOWNERS files cannot be imported, so there is nothing to sync.');
  if (update.raw === undefined) return { fallthrough: update.fallthrough, autoAssignment };
  const blank = update.raw.trim() === '';
  const parsed: ParsedOwnershipRules = blank ? { ok: true, rules: [] } : parseOwnershipRules(update.raw);
  if (!parsed.ok) throw invalid('raw', parsed.error);
  if (parsed.rules.some((rule) => rule.matcher.type === 'codeowners')) {
    throw invalid('raw', 'Codeowner type paths can only be added by importing CODEOWNER files');
  }
  return { rules: parsed.rules, raw: blank ? null : update.raw, fallthrough: update.fallthrough, autoAssignment };
}

/** Owners as Sentry names them in errors: `#team` or the address. */
export function ownerLabel(owner: OwnershipOwner): string {
  return owner.type === 'team' ? `#${owner.identifier}` : owner.identifier;
}

/**
 * The settings after the update, given the ids its owners name (by `ownerLabel`); an owner that
 * is no team or member of the organization is refused, all of them named, as Sentry does.
 */
export function updatedOwnership(
  current: ProjectOwnershipSettings,
  planned: PlannedOwnershipUpdate,
  ownerIds: ReadonlyMap<string, string>,
): ProjectOwnershipSettings {
  let { raw, schema } = current;
  if (planned.rules) {
    const unknown = [...new Set(planned.rules.flatMap((rule) => rule.owners.map(ownerLabel)).filter((label) => !ownerIds.has(label)))].sort();
    if (unknown.length) throw invalid('raw', `Invalid rule owners: ${unknown.join(', ')}`);
    raw = planned.raw ?? null;
    schema =
      raw === null
        ? null
        : ownershipSchema(
            planned.rules.map((rule) => ({ ...rule, owners: rule.owners.map((owner) => ({ ...owner, id: ownerIds.get(ownerLabel(owner)) as string })) })),
          );
  }
  return {
    raw,
    schema,
    fallthrough: planned.fallthrough ?? current.fallthrough,
    autoAssignment: planned.autoAssignment ?? current.autoAssignment,
  };
}

/** The fields that differ, as an event records them. */
export function ownershipChanges(before: ProjectOwnershipSettings, after: ProjectOwnershipSettings): Partial<ProjectOwnershipSettings> {
  const changes: Record<string, unknown> = {};
  for (const key of ['raw', 'fallthrough', 'autoAssignment'] as const) if (before[key] !== after[key]) changes[key] = after[key];
  if ('raw' in changes || JSON.stringify(before.schema) !== JSON.stringify(after.schema)) changes.schema = after.schema;
  return changes;
}
