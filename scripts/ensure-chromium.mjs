#!/usr/bin/env node
// The journeys and the bench's console group drive Debian's Chromium (Playwright cannot download
// a browser here). `npm test` and `npm run bench` call this first so a fresh machine needs nothing
// installed by hand: it finds Chromium, and where it is missing installs Debian's package when
// running as root, or says the one command to run.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const INSTALL = 'apt-get update && apt-get install -y chromium';

function found() {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) return existsSync(configured) ? configured : null;
  return existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : null;
}

function run(command, args) {
  const result = spawnSync(command, args, {
    // apt's progress goes nowhere; its errors still reach the terminal.
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return result.status === 0;
}

if (found()) process.exit(0);

if (process.env.CHROMIUM_PATH) {
  console.error(`CHROMIUM_PATH=${process.env.CHROMIUM_PATH} does not exist.`);
  process.exit(1);
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!isRoot) {
  console.error(
    `Chromium is needed for the journeys and the bench, and is not installed. Run: sudo sh -c '${INSTALL}'`,
  );
  process.exit(1);
}

console.log(
  "Chromium is missing: installing Debian's package (needed by the journeys and the bench)...",
);
if (
  !run('apt-get', ['update', '-qq']) ||
  !run('apt-get', ['install', '-y', '-qq', 'chromium']) ||
  !found()
) {
  console.error(`Installing Chromium failed. Run: ${INSTALL}`);
  process.exit(1);
}
