import { defineFaultlineModule } from '@faultline/platform';
import { TicketTracker1763900000000 } from './migrations/1763900000000-ticket-tracker';
import { TicketTrackerSchema1763900000100 } from './migrations/1763900000100-ticket-tracker-schema';
import { TicketTrackerModule } from './ticket-tracker.module';
import { ticketTrackerConfig } from './ticket-tracker.config';

/**
 * The example extension module: opens a ticket in an HTTP tracker for every new issue and lists
 * it under `GET /api/0/organizations/{org}/issues/{issue_id}/tickets/`. Load it with
 * `FAULTLINE_MODULES=./modules/ticket-tracker` and `TICKET_TRACKER_URL`.
 */
export const faultlineModule = defineFaultlineModule({
  name: 'ticket-tracker',
  module: ({ config }) => TicketTrackerModule.forRoot(ticketTrackerConfig(config)),
  migrations: [TicketTracker1763900000000, TicketTrackerSchema1763900000100],
});

export { TicketTrackerModule } from './ticket-tracker.module';
export { idempotencyKey, type TicketRequest } from './domain/ticket';
export { type TicketTrackerConfig, ticketTrackerConfig } from './ticket-tracker.config';
