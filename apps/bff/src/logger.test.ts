import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, fixedFieldLogger } from './logger';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  });
  return { lines, sink };
}

describe('logger', () => {
  it('censors secret fields on the main logger, at the top level and one level down', () => {
    const { lines, sink } = capture();
    const logger = createLogger('info', sink);
    logger.info({ password: 'hunter2', operator: { sessionId: 'sid' } }, 'login');
    expect(lines[0]).toMatchObject({
      password: '[redacted]',
      operator: { sessionId: '[redacted]' },
      msg: 'login',
      service: 'bff',
    });
  });

  it('writes the fixed-field lines as given, at the parent level, and reuses one child per logger', () => {
    const { lines, sink } = capture();
    const logger = createLogger('warn', sink);
    const fixed = fixedFieldLogger(logger);
    expect(fixedFieldLogger(logger)).toBe(fixed);
    fixed.info({ method: 'GET', status: 200 }, 'request');
    fixed.warn({ method: 'GET', path: '/bff/api/v1/transactions', status: 503 }, 'request');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 40,
      service: 'bff',
      method: 'GET',
      path: '/bff/api/v1/transactions',
      status: 503,
      msg: 'request',
    });
  });
});
