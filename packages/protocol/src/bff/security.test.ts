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
