export { type AddressPolicy, isAllowedAddress, refusalReason } from './address-policy';
export { OutboundHttpClients, type OutboundClient, type OutboundResponse } from './outbound-client';
export { describeError, destinationRefusal, OutboundHttp, PolicyOutboundHttpClients, RefusedAddressError, RESPONSE_BODY_LIMIT } from './outbound-http';
