import { Injectable } from '@nestjs/common';
import type { DeliveryTargetKind } from '../contracts/delivery-target-kind';

/** The target kinds the delivery engine knows; each owner registers its own when its module starts. */
@Injectable()
export class DeliveryTargetKinds {
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
