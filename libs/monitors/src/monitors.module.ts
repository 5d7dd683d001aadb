import { Module, type OnModuleInit } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { EventRecorder, EventStoreModule } from '@faultline/event-store';
import { IssuesModule } from '@faultline/issues';
import { RetentionSchedule, WorkerHost } from '@faultline/platform';
import { MonitorsController } from './api/monitors.controller';
import { MonitorTransferRehoming } from './infrastructure/project-transfer-rehoming';
import { CreateMonitorHandler } from './application/commands/create-monitor/create-monitor.handler';
import { DeleteMonitorHandler } from './application/commands/delete-monitor/delete-monitor.handler';
import { UpdateMonitorHandler } from './application/commands/update-monitor/update-monitor.handler';
import { MonitorRuns } from './application/monitor-runs';
import { MonitorCheckInIntake } from './contracts/monitor-check-in-intake';
import { MonitorSweep } from './contracts/monitor-sweep';
import { CheckInIntakeService } from './infrastructure/check-in-intake.service';
import { CheckInRetentionRepository } from './infrastructure/check-in-retention.repository';
import { MonitorEnvironmentsRepository } from './infrastructure/monitor-environments.repository';
import { MonitorSweepWorker } from './infrastructure/monitor-sweep.worker';
import { monitorsConfigProvider } from './infrastructure/monitors-config';
import { MonitorsRepository } from './infrastructure/monitors.repository';

/**
 * Cron monitors (Sentry's Crons): check-ins from SDKs and sentry-cli, each monitor environment's
 * status, the sweep that finds missed and timed-out runs, and the issues their failures open.
 */
@Module({
  imports: [CqrsModule, EventStoreModule, IssuesModule],
  controllers: [MonitorsController],
  providers: [
    monitorsConfigProvider,
    MonitorsRepository,
    MonitorEnvironmentsRepository,
    MonitorRuns,
    CheckInIntakeService,
    { provide: MonitorCheckInIntake, useExisting: CheckInIntakeService },
    MonitorSweepWorker,
    { provide: MonitorSweep, useExisting: MonitorSweepWorker },
    CreateMonitorHandler,
    UpdateMonitorHandler,
    DeleteMonitorHandler,
    CheckInRetentionRepository,
    MonitorTransferRehoming,
  ],
  exports: [MonitorCheckInIntake, MonitorSweep],
})
export class MonitorsModule implements OnModuleInit {
  constructor(
    private readonly workers: WorkerHost,
    private readonly sweep: MonitorSweepWorker,
    private readonly retention: RetentionSchedule,
    private readonly checkInRetention: CheckInRetentionRepository,
    private readonly recorder: EventRecorder,
    private readonly rehoming: MonitorTransferRehoming,
  ) {}

  onModuleInit(): void {
    this.recorder.onAppended(this.rehoming.onAppended);
    this.workers.register(this.sweep);
    this.retention.register(this.checkInRetention);
  }
}
