import type { DeliveryTargetKind } from './delivery-target-kind';

/** Where each owner of a target kind registers it when its module starts; the engine sends each delivery as its kind says. */
export abstract class DeliveryTargetKindRegistry {
  /** Registering the same kind again does nothing; another kind under a known name throws. */
  abstract register(kind: DeliveryTargetKind): void;
}
