import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startBff,
  startSandbox,
  type BffInstance,
  type SandboxProcess,
} from '../test-support/harness';

/** The console's index.html, reduced to what the early paint reads. */
const PAGE = [
  '<!doctype html><html><body>',
  '<div id="root"><div role="status">Loading the console…</div></div>',
  '<template id="signed-in-overview"><p>Signed in as {{username}} ({{role}}).</p></template>',
  '</body></html>',
].join('');

let sandbox: SandboxProcess;
let bff: BffInstance;

beforeAll(async () => {
  sandbox = await startSandbox();
  bff = await startBff({ sandbox });
  // Read from disk on every signed-in request: replaces the harness's page.
  writeFileSync(join(bff.dataDir, 'console-dist', 'index.html'), PAGE);
});

afterAll(async () => {
  await bff.close();
  await sandbox.stop();
});

describe("the BFF's early paint of the landing page", () => {
  it("names the operator of the request's session on `/`, and nobody once signed out", async () => {
    const treasury = await bff.login('treasury');
    const signedIn = await bff.call('GET', '/', { browser: treasury });
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers['cache-control']).toBe('no-store');
    expect(signedIn.text).toContain(
      '<div id="root"><p>Signed in as treasury (treasury).</p></div>',
    );
    expect(signedIn.text).not.toContain('<template');

    const out = await bff.call('POST', '/bff/auth/logout', { browser: treasury });
    expect(out.status).toBe(204);
    const signedOut = await bff.call('GET', '/', { browser: treasury });
    expect(signedOut.text).toBe(PAGE);
  });

  it('serves the page as it is without a session, or with one that is not (a made-up cookie)', async () => {
    expect((await bff.call('GET', '/')).text).toBe(PAGE);
    const { cookie } = await bff.login('support');
    const name = (cookie ?? '').split('=')[0] ?? '';
    const forged = await bff.call('GET', '/', {
      browser: { cookie: `${name}=not-a-session-id`, csrf: null },
    });
    expect(forged.text).toBe(PAGE);
  });
});
