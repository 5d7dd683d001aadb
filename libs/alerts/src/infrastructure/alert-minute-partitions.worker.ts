import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '@faultline/kernel';
import { type DailyPartitions, DailyPartitionsWorker } from '@faultline/platform';
import { AlertMinutePartitionsRepository } from './alert-minute-partitions.repository';

/** Keeps the alert minutes' days ahead; retention drops them (AlertMinutePartitionsRepository.prune). */
@Injectable()
export class AlertMinutePartitionsWorker extends DailyPartitionsWorker {
  readonly name = 'alerts.minute-partitions';
  protected readonly tables: readonly DailyPartitions[];

  constructor(partitions: AlertMinutePartitionsRepository, @Inject(CLOCK) clock: Clock) {
    super(clock);
    this.tables = partitions.tables;
  }
}
