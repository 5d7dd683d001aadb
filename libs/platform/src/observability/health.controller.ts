import { Controller, Get, Header, HttpCode, ServiceUnavailableException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../auth';
import { Database } from '../database';
import { WorkerHost } from '../lifecycle/worker-host';
import { Metrics } from './metrics';

@ApiExcludeController()
@Public()
@Controller()
export class HealthController {
  constructor(
    private readonly database: Database,
    private readonly workers: WorkerHost,
    private readonly metrics: Metrics,
  ) {}

  @Get('health/live')
  live(): { status: string } {
    return { status: 'ok' };
  }

  @Get('health/ready')
  async ready(): Promise<{ status: string }> {
    if (this.workers.isShuttingDown) {
      throw new ServiceUnavailableException({ detail: 'Shutting down', status: 'unavailable' });
    }
    try {
      await this.database.query('SELECT 1');
    } catch {
      throw new ServiceUnavailableException({ detail: 'Database unavailable', status: 'unavailable' });
    }
    return { status: 'ok' };
  }

  @Get('metrics')
  @HttpCode(200)
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  async scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
