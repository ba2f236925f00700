import { vi } from 'vitest';
import { PHONE_QUERY } from '../lib/use-media-query';

/**
 * Test support: makes `matchMedia` answer as a phone-sized or a wide screen would, for the
 * components that render another layout below Tailwind's sm breakpoint. Undo with
 * `vi.restoreAllMocks()`.
 */
export function screenIs(width: 'phone' | 'desktop'): void {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        matches: width === 'phone' && query === PHONE_QUERY,
        media: query,
        onchange: null,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
        dispatchEvent: () => false,
      }) as unknown as MediaQueryList,
  );
}
