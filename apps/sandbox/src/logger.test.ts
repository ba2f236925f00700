import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger';

/** The app's own logger (the one main.ts builds), writing into memory. */
function captured(): { logger: ReturnType<typeof createLogger>; text: () => string } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { logger: createLogger('info', sink), text: () => lines.join('') };
}

describe('createLogger', () => {
  it('censors signatures, authorization headers and key material, nested or top-level', () => {
    const { logger, text } = captured();
    logger.info({
      req: {
        headers: {
          'x-api-signature': 'SIG-SECRET',
          authorization: 'Bearer ADMIN-SECRET',
          cookie: 'sid=COOKIE-SECRET',
        },
      },
      key: { privateKey: 'SEED-SECRET', seed: 'RAW-SEED-SECRET' },
      adminToken: 'TOKEN-SECRET',
      signature: 'TOP-SIG-SECRET',
    });
    const out = text();
    for (const secret of [
      'SIG-SECRET',
      'ADMIN-SECRET',
      'COOKIE-SECRET',
      'SEED-SECRET',
      'TOKEN-SECRET',
      'TOP-SIG-SECRET',
    ]) {
      expect(out).not.toContain(secret);
    }
    expect(out).toContain('[redacted]');
  });

  it('names the service and keeps fields that are not secrets', () => {
    const { logger, text } = captured();
    logger.info({ requestId: 'req_1', status: 201 }, 'request');
    const line = JSON.parse(text()) as Record<string, unknown>;
    expect(line).toMatchObject({
      service: 'sandbox',
      requestId: 'req_1',
      status: 201,
      msg: 'request',
    });
  });

  it('drops lines below its level', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const logger = createLogger('warn', sink);
    logger.info('not written');
    logger.warn('written');
    expect(lines).toHaveLength(1);
  });
});
