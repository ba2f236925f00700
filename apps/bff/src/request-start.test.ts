import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger';
import { requestStart } from './request-start';
import { captureLogLines as capture } from './test-support/log-lines';

/** A request and its answer as node makes them, never sent: `finish` is emitted by the test. */
function exchange(method: string, url: string) {
  const req = new IncomingMessage(new Socket());
  req.method = method;
  req.url = url;
  return { req, res: new ServerResponse(req) };
}

const nextTurn = () =>
  new Promise<void>((resolve) => {
    setImmediate(resolve);
  });

describe('requestStart', () => {
  it("gives the answer our id and helmet's headers before anything is sent", () => {
    const { lines, sink } = capture();
    const start = requestStart(createLogger('info', sink));
    const { req, res } = exchange('GET', '/bff/api/v1/assets');
    const id = start(req, res);
    expect(id).toMatch(/^bff_/);
    expect(res.getHeader('x-request-id')).toBe(id);
    expect(res.getHeader('x-content-type-options')).toBe('nosniff');
    expect(lines).toEqual([]);
  });

  it('writes the lines of the answers one turn finished after that turn, in order, each once', async () => {
    const { lines, sink } = capture();
    const start = requestStart(createLogger('info', sink));
    const answers = ['/bff/api/v1/assets?limit=1', '/bff/api/v1/wallets', '/bff/auth/me'].map(
      (url) => {
        const { req, res } = exchange('GET', url);
        return { id: start(req, res), res };
      },
    );
    answers[1]?.res.setHeader('x-request-id', 'req_upstream_1');
    if (answers[2]) answers[2].res.statusCode = 401;
    for (const { res } of answers) res.emit('finish');
    // The turn that finished them is not over: no line holds up an answer after it.
    expect(lines).toEqual([]);
    await nextTurn();
    expect(
      lines.map(({ requestId, upstreamRequestId, method, path, status, msg }) => ({
        requestId,
        upstreamRequestId,
        method,
        path,
        status,
        msg,
      })),
    ).toEqual(
      [
        { upstreamRequestId: answers[0]?.id, path: '/bff/api/v1/assets', status: 200 },
        { upstreamRequestId: 'req_upstream_1', path: '/bff/api/v1/wallets', status: 200 },
        { upstreamRequestId: answers[2]?.id, path: '/bff/auth/me', status: 401 },
      ].map((line, i) => ({ requestId: answers[i]?.id, method: 'GET', msg: 'request', ...line })),
    );
    expect(lines.every((line) => typeof line.ms === 'number')).toBe(true);

    // A later turn's answer gets its own write, and nothing is written twice.
    const later = exchange('POST', '/bff/auth/logout');
    start(later.req, later.res);
    later.res.emit('finish');
    await nextTurn();
    expect(lines).toHaveLength(4);
    expect(lines[3]).toMatchObject({ method: 'POST', path: '/bff/auth/logout' });
  });

  it('writes the lines still waiting at once when asked (shutdown), and not again after the turn', async () => {
    const { lines, sink } = capture();
    const start = requestStart(createLogger('info', sink));
    const { req, res } = exchange('GET', '/bff/api/v1/assets');
    const id = start(req, res);
    res.emit('finish');
    start.flushLines();
    expect(lines).toEqual([expect.objectContaining({ requestId: id, msg: 'request' })]);
    await nextTurn();
    expect(lines).toHaveLength(1);
  });
});
