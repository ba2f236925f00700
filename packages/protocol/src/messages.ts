import { z } from 'zod/mini';

/**
 * Gives zod's own issues (those without a message of ours) English text, as classic zod does
 * when it loads: zod/mini loads no locale, and its issues would all read "Invalid input".
 * Called once by a process whose only zod is mini (the console, at its start); the servers
 * import classic zod, which does it. A function, not an import-time effect: the console's build
 * treats this package as free of those and would drop it (vite.config.ts).
 */
export function loadEnglishMessages(): void {
  z.config(z.locales.en());
}
