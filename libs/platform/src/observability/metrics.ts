import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { poolStats } from '../database';

/** The Prometheus registry of one process: HTTP requests and latency by route, database pool. */
export class Metrics {
  readonly registry = new Registry();
  readonly httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route template and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method and route template',
    labelNames: ['method', 'route'] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  constructor(dataSource: DataSource) {
    collectDefaultMetrics({ register: this.registry });
    const pool = (name: string, help: string, pick: (s: NonNullable<ReturnType<typeof poolStats>>) => number) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          const stats = poolStats(dataSource);
          if (stats) this.set(pick(stats));
        },
      });
    pool('db_pool_connections_total', 'Database connections open in the pool', (s) => s.total);
    pool('db_pool_connections_idle', 'Idle database connections in the pool', (s) => s.idle);
    pool('db_pool_waiting_requests', 'Requests waiting for a database connection', (s) => s.waiting);
  }

  observeRequest(method: string, route: string, statusCode: number, seconds: number): void {
    this.httpRequests.inc({ method, route, status_code: String(statusCode) });
    this.httpDuration.observe({ method, route }, seconds);
  }
}
