import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { REDACT_PATHS } from './logger';

describe('logger redaction', () => {
  it('censors signatures, authorization headers and key material', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const logger = pino({ redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, sink);
    logger.info({
      req: { headers: { 'x-api-signature': 'SIG-SECRET', authorization: 'Bearer ADMIN-SECRET' } },
      key: { privateKey: 'SEED-SECRET' },
      adminToken: 'TOKEN-SECRET',
    });
    const text = lines.join('');
    for (const secret of ['SIG-SECRET', 'ADMIN-SECRET', 'SEED-SECRET', 'TOKEN-SECRET']) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('[redacted]');
  });
});
