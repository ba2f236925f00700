import { describe, expect, it } from 'vitest';
import { matchOperation, queryProblem } from './operations';

describe('matchOperation', () => {
  it('maps method and raw path to the allowlisted operation', () => {
    expect(matchOperation('GET', '/api/v1/wallets/w1/balances')?.name).toBe('wallets.balances');
    expect(matchOperation('POST', '/api/v1/mpc/initialize')?.role).toBe('admin');
    expect(matchOperation('POST', '/api/v1/co-signer/intents/i/claim')).toBeNull();
    expect(matchOperation('GET', '/api/v1/wallets/..')).toBeNull();
    expect(matchOperation('PUT', '/api/v1/wallets')).toBeNull();
  });
});

describe('queryProblem', () => {
  const wallets = matchOperation('GET', '/api/v1/wallets');
  if (!wallets) throw new Error('missing');

  it('accepts the interface parameters verbatim, encoded or not', () => {
    expect(
      queryProblem(wallets, "addressContains=T%7e'x&limit=5&lang=de&cursor=a%2Bb%3D"),
    ).toBeNull();
  });

  it('names unknown, repeated, empty and badly encoded parameters', () => {
    expect(queryProblem(wallets, 'foo=1')).toContain('unknown parameter "foo"');
    expect(queryProblem(wallets, 'limit=1&limit=2')).toContain('repeated');
    expect(queryProblem(wallets, 'limit=1&&x')).toContain('empty');
    expect(queryProblem(wallets, 'cursor=%E0%A4%A')).toContain('percent-encoding');
    expect(queryProblem(wallets, 'cursor=a b')).toContain('percent-encoded');
  });
});
