import '@testing-library/jest-dom/vitest';
import { loadEnglishMessages } from '@settlement/protocol';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// As app/main.tsx does: the messages a test reads are the ones an operator sees.
loadEnglishMessages();

// CI runs every project's tests at once on two cores; the 1 s default of findBy/waitFor
// measures the machine's load, not the component.
configure({ asyncUtilTimeout: 5000 });

// jsdom has no matchMedia; the toaster follows the system colour scheme through it. Light,
// and no change events, as a browser that never switches.
if (typeof Reflect.get(window, 'matchMedia') !== 'function') {
  const matchMedia = (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  });
  Object.defineProperty(window, 'matchMedia', { value: matchMedia, configurable: true });
}

// jsdom lays nothing out, so it cannot scroll: its window.scrollTo only reports "not
// implemented". The shell's scroll restoration calls it on every navigation; a test that
// cares spies on it.
Object.defineProperty(window, 'scrollTo', {
  value: () => undefined,
  configurable: true,
  writable: true,
});

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  sessionStorage.clear();
});
