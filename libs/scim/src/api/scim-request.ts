import type { EventMetadata } from '@faultline/kernel';
import { ScimError } from '../domain/scim-error';

/** Provisioning changes are recorded as made by the organization's identity provider. */
export const SCIM_METADATA: EventMetadata = { actorType: 'application', actorId: 'scim' };

/** A request body that must be a JSON object (a SCIM resource or a PatchOp). */
export function jsonObject(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw ScimError.badRequest('invalidSyntax', 'The body must be a JSON object.');
  return value as Record<string, unknown>;
}
