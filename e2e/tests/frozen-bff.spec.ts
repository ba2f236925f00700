import { readdirSync, readFileSync } from 'node:fs';
import { expect, saveScreenshot, signIn, test } from '../fixtures';
import { STACK } from '../stack';

/**
 * The BFF process of this e2e stack: among the BFFs on this machine (a developer's `npm start`
 * may run beside it), the one started with this stack's port and data dir. Read from /proc
 * (Linux), so no process tool needs to be installed.
 */
function stackBffPid(): number {
  const read = (pid: string, file: string) => {
    try {
      return readFileSync(`/proc/${pid}/${file}`, 'utf8').split('\0');
    } catch {
      return []; // gone meanwhile, or not ours to read
    }
  };
  const found = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => read(pid, 'cmdline').some((arg) => arg.endsWith('apps/bff/src/main.ts')))
    .filter((pid) => {
      const env = read(pid, 'environ');
      return (
        env.includes(`PORT=${String(STACK.port)}`) && env.includes(`DATA_DIR=${STACK.dataDir}`)
      );
    });
  if (found.length !== 1)
    throw new Error(`expected one BFF of the e2e stack, found ${found.length}`);
  return Number(found[0]);
}

test('a console whose server stops answering stops saying "Live", and says it again once it answers', async ({
  page,
}) => {
  test.setTimeout(150_000);
  await signIn(page, 'treasury');
  const live = page.getByRole('status', { name: 'Live updates: Live' });
  await expect(live).toBeVisible();

  // Frozen, not killed: the connection stays open and nothing, not even a close, comes back.
  const pid = stackBffPid();
  process.kill(pid, 'SIGSTOP');
  try {
    // A heartbeat every 10 s; a socket that heard nothing for 25 s is given up.
    await expect(page.getByRole('status', { name: 'Live updates: Reconnecting' })).toBeVisible({
      timeout: 45_000,
    });
    await saveScreenshot(page, 'frozen-bff-reconnecting');
  } finally {
    process.kill(pid, 'SIGCONT');
  }
  await expect(live).toBeVisible({ timeout: 45_000 });
});
