/**
 * The request headers both proxy references pass on unchanged: the load generator's own
 * signature, so the sandbox does the same work as behind the BFF.
 */
export const FORWARDED_HEADERS = [
  'x-api-key-id',
  'x-api-timestamp',
  'x-api-nonce',
  'x-api-signature',
  'x-api-body-hash',
  'x-idempotency-key',
  'x-request-id',
  'content-type',
  'accept',
] as const;
