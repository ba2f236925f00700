import { describe, expect, it } from 'vitest';
import {
  describeErrorCode,
  ERROR_CODES,
  errorEnvelope,
  isErrorCode,
  parseErrorEnvelope,
} from './errors';

describe('error codes', () => {
  it('carry the statuses DESIGN.md decides', () => {
    expect(ERROR_CODES.INSUFFICIENT_AVAILABLE_BALANCE.status).toBe(422);
    expect(ERROR_CODES.WITHDRAWALS_BLOCKED.status).toBe(403);
    expect(ERROR_CODES['mpc.errors.IDEMPOTENCY_CONFLICT'].status).toBe(400);
    expect(ERROR_CODES.IDEMPOTENCY_CONFLICT.status).toBe(409);
    expect(ERROR_CODES.UPSTREAM_UNAVAILABLE.status).toBe(503);
  });

  it('are retryable only for UPSTREAM_UNAVAILABLE and INTERNAL_ERROR', () => {
    const retryable = Object.entries(ERROR_CODES)
      .filter(([, v]) => v.retryable)
      .map(([k]) => k)
      .sort();
    expect(retryable).toEqual(['INTERNAL_ERROR', 'UPSTREAM_UNAVAILABLE']);
  });
});

describe('error envelope', () => {
  it('is built with the table flags and recognised back', () => {
    const envelope = errorEnvelope('UPSTREAM_UNAVAILABLE', 'req_1');
    expect(envelope).toEqual({
      code: 'UPSTREAM_UNAVAILABLE',
      message: ERROR_CODES.UPSTREAM_UNAVAILABLE.text,
      details: [],
      requestId: 'req_1',
      retryable: true,
    });
    expect(parseErrorEnvelope(envelope)).toEqual(envelope);
    expect(parseErrorEnvelope({ code: 'X' })).toBeNull();
    expect(parseErrorEnvelope('oops')).toBeNull();
  });

  it('describes known and unknown codes', () => {
    expect(isErrorCode('RESOURCE_NOT_FOUND')).toBe(true);
    expect(isErrorCode('toString')).toBe(false);
    expect(describeErrorCode('WITHDRAWALS_BLOCKED')).toMatch(/Do not retry/);
    expect(describeErrorCode('NEW_CODE')).toBe('Error NEW_CODE.');
  });
});
