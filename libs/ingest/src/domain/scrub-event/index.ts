// Data scrubbing as Relay's legacy scrubbing does it: the rules (rules.ts), a project's settings made
// ready to apply (data-scrubber.ts) and the pass over an event or a raw payload (scrub-event.ts).
export { dataScrubber, NO_SCRUBBING, type DataScrubber } from './data-scrubber';
export { FILTERED } from './rules';
export { scrubEvent, scrubPayload } from './scrub-event';
