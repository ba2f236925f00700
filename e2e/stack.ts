import { join } from 'node:path';

const port = Number(process.env.E2E_PORT ?? 8181);

/** Where the e2e stack runs: its own ports and data dir, so it never meets a developer's stack. */
export const STACK = {
  port,
  sandboxPort: Number(process.env.E2E_SANDBOX_PORT ?? 4111),
  // One data dir per port, so two runs on different ports never share state.
  dataDir: join(import.meta.dirname, '.stack', String(port)),
  adminToken: process.env.E2E_SANDBOX_ADMIN_TOKEN ?? 'e2e-admin-token-not-secret-local-only',
  get baseUrl() {
    return `http://127.0.0.1:${this.port}`;
  },
  get sandboxUrl() {
    return `http://127.0.0.1:${this.sandboxPort}`;
  },
};
