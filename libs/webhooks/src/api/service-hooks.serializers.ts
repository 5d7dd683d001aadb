import type { AttemptRow, DeliveryRow } from '../infrastructure/deliveries.repository';
import type { ServiceHookRow } from '../infrastructure/service-hooks.repository';

export function serializeServiceHook(hook: ServiceHookRow) {
  return {
    id: hook.id,
    url: hook.url,
    secret: hook.secret,
    status: hook.status,
    events: [...hook.events].sort(),
    dateCreated: hook.created_at.toISOString(),
    ...(hook.disabled_reason ? { disabledReason: hook.disabled_reason } : {}),
  };
}

export function serializeDelivery(delivery: DeliveryRow, attempts: readonly AttemptRow[]) {
  return {
    id: delivery.guid,
    event: delivery.event_type,
    status: delivery.status,
    attempts: delivery.attempts,
    lastStatusCode: delivery.last_status_code,
    lastError: delivery.last_error,
    nextAttemptAt: delivery.status === 'pending' ? delivery.next_attempt_at.toISOString() : null,
    dateCreated: delivery.created_at.toISOString(),
    dateFinished: delivery.finished_at?.toISOString() ?? null,
    attemptLog: attempts.map((attempt) => ({
      dateAttempted: attempt.attempted_at.toISOString(),
      statusCode: attempt.status_code,
      durationMs: attempt.duration_ms,
      error: attempt.error,
      request: { headers: attempt.request_headers, body: delivery.request_body },
      response: attempt.response_headers ? { headers: attempt.response_headers, body: attempt.response_body } : null,
    })),
  };
}
