import { describe, expect, it } from 'vitest';
import { hasRole, ROLES } from './security';

describe('hasRole', () => {
  it('lets each role do what it and every role before it in ROLES may, and nothing later', () => {
    expect(ROLES).toEqual(['support', 'treasury', 'admin']);
    const table = ROLES.map((actual) => ROLES.map((required) => hasRole(actual, required)));
    expect(table).toEqual([
      [true, false, false],
      [true, true, false],
      [true, true, true],
    ]);
  });
});

describe('the security module', () => {
  it('holds only what the console needs as it starts (who is signed in, step-up)', async () => {
    // A bundler never splits a module, and zod builds every schema of a module as it is
    // evaluated: whatever is added here is built on every console start, before the first paint.
    // Sign-in, passkeys, sessions and operators are modules of their own, for the pages that use them.
    const names = Object.keys(await import('./security')).sort();
    expect(names).toEqual([
      'MeSchema',
      'PasskeyRequestOptionsSchema',
      'ROLES',
      'RoleSchema',
      'STEP_UP_FRESH_MS',
      'StepUpSchema',
      'TRANSPORTS',
      'UPSTREAM_KINDS',
      'hasRole',
    ]);
  });

  it('keeps every schema in the package API', async () => {
    const api = await import('../index');
    for (const name of [
      'PasskeyCreationOptionsSchema',
      'SignInResultSchema',
      'SessionListSchema',
      'UpdateOperatorRequestSchema',
      'TRANSPORTS',
    ]) {
      expect(api).toHaveProperty(name);
    }
  });
});
