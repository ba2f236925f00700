import { defineConfig } from '@playwright/test';
import { STACK } from './stack';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    baseURL: STACK.baseUrl,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [
    // Onboarding starts from an uninitialized organization, so it runs before the rest.
    { name: 'onboarding', testMatch: /onboarding\.spec\.ts/ },
    { name: 'journeys', testIgnore: /onboarding\.spec\.ts/, dependencies: ['onboarding'] },
  ],
  // The journeys need the whole stack (sandbox, demo seeding, BFF serving the built console), so
  // they start it as `npm start` does; tests and the bench that need only a sandbox use
  // spawnSandbox from @settlement/sandbox/spawn.
  webServer: {
    command: `node -e "require('fs').rmSync(process.argv[1],{recursive:true,force:true})" ${STACK.dataDir} && node ../scripts/start.mjs`,
    url: `${STACK.baseUrl}/bff/healthz`,
    reuseExistingServer: false,
    timeout: 240_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(STACK.port),
      SANDBOX_PORT: String(STACK.sandboxPort),
      DATA_DIR: STACK.dataDir,
      SANDBOX_BLOCK_MS: '100',
      SANDBOX_ADMIN_TOKEN: STACK.adminToken,
      LOG_LEVEL: 'warn',
      // Passkeys: WebAuthn takes no IP address as relying-party id, so the passkey journeys
      // browse http://localhost:<port> (the other journeys stay on 127.0.0.1).
      WEBAUTHN_RP_ID: 'localhost',
      WEBAUTHN_ORIGINS: `http://localhost:${STACK.port}`,
    },
  },
});
