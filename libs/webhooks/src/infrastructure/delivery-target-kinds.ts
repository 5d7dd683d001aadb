import { Injectable } from '@nestjs/common';
import type { DeliveryTargetKind } from '../contracts/delivery-target-kind';
import { DeliveryTargetKindRegistry } from '../contracts/delivery-target-kind-registry';

/** The target kinds the delivery engine knows, as their owners registered them; the engine looks each delivery's kind up here. */
@Injectable()
export class DeliveryTargetKinds extends DeliveryTargetKindRegistry {
  private readonly kinds = new Map<string, DeliveryTargetKind>();

  register(kind: DeliveryTargetKind): void {
    const known = this.kinds.get(kind.name);
    if (known && known !== kind) throw new Error(`the delivery target kind ${kind.name} is registered twice`);
    this.kinds.set(kind.name, kind);
  }

  get(name: string): DeliveryTargetKind | undefined {
    return this.kinds.get(name);
  }

  all(): DeliveryTargetKind[] {
    return [...this.kinds.values()];
  }
}
