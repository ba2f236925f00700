import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import {
  openEvents,
  startBff,
  startSandbox,
  type BffInstance,
  type SandboxProcess,
} from '../test-support/harness';

/**
 * Behind a TLS-terminating proxy the browser's Origin is https://console.example while the
 * BFF itself listens on plain http at another host: PUBLIC_ORIGIN names that one origin.
 */
const PUBLIC = 'https://console.example';

let sandbox: SandboxProcess;
let proxied: BffInstance;
let direct: BffInstance;

beforeAll(async () => {
  sandbox = await startSandbox({ blockMs: 50 });
  proxied = await startBff({ sandbox, env: { PUBLIC_ORIGIN: PUBLIC } });
  direct = await startBff({ sandbox });
}, 60_000);

afterAll(async () => {
  await proxied.close();
  await direct.close();
  await sandbox.stop();
});

const login = (instance: BffInstance, origin: string) =>
  instance.call('POST', '/bff/auth/login', {
    origin,
    body: { username: 'support', password: instance.password('support') },
  });

describe('the Origin check with PUBLIC_ORIGIN', () => {
  it('accepts a mutating request and the event socket from the public https origin', async () => {
    const response = await login(proxied, PUBLIC);
    expect(response.status).toBe(200);
    const browser = {
      cookie: (response.headers['set-cookie'] ?? '').split(';')[0] ?? null,
      csrf: (response.json as { csrfToken: string }).csrfToken,
    };
    const socket = await openEvents(proxied, browser, { origin: PUBLIC });
    await expect.poll(() => socket.frames[0]).toMatchObject({ kind: 'upstream' });
    socket.ws.close();
    // The listener's own origin still works (a health check or an operator on the host).
    expect((await login(proxied, proxied.origin)).status).toBe(200);
  });

  it('still refuses any other origin, including the public host over http', async () => {
    for (const origin of ['https://evil.example', 'http://console.example', `${PUBLIC}:8443`]) {
      const response = await login(proxied, origin);
      expect(response.status).toBe(403);
      expect(response.json).toMatchObject({ code: 'FORBIDDEN' });
    }
    const browser = await proxied.login('support');
    await expect(openEvents(proxied, browser, { origin: 'https://evil.example' })).rejects.toThrow(
      /403/,
    );
  });

  it('without PUBLIC_ORIGIN, refuses the https origin the BFF does not itself serve', async () => {
    expect((await login(direct, PUBLIC)).status).toBe(403);
  });
});

describe('PUBLIC_ORIGIN in the configuration', () => {
  it('is null by default and must be exactly scheme://host[:port]', () => {
    expect(loadConfig({}).publicOrigin).toBeNull();
    expect(loadConfig({ PUBLIC_ORIGIN: PUBLIC }).publicOrigin).toBe(PUBLIC);
    for (const bad of ['https://console.example/', 'console.example', 'ftp://console.example']) {
      expect(() => loadConfig({ PUBLIC_ORIGIN: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ PUBLIC_ORIGIN: bad })).toThrow(/PUBLIC_ORIGIN/);
    }
  });
});
