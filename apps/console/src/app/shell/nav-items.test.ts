import { describe, expect, it } from 'vitest';
import { NAV_ITEMS, navItemsFor } from './nav-items';

describe('navItemsFor', () => {
  it('shows Operators to admins only and every other entry to every role, in order', () => {
    const labels = (role: 'admin' | 'treasury' | 'support') =>
      navItemsFor(role).map((item) => item.label);
    expect(labels('admin')).toEqual(NAV_ITEMS.map((item) => item.label));
    expect(labels('treasury')).not.toContain('Operators');
    expect(labels('support')).not.toContain('Operators');
    expect(labels('support')).toEqual(labels('treasury'));
    expect(labels('treasury')).toContain('Timeline');
  });
});
