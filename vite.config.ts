import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const consoleRoot = fileURLToPath(new URL('./apps/console', import.meta.url));
// `npm run dev` passes BFF_URL when the BFF runs elsewhere than the default port.
const bffTarget = process.env.BFF_URL ?? 'http://127.0.0.1:8080';

/** The console's build and dev server. Routes are lazy, so each page is its own chunk. */
export default defineConfig({
  root: consoleRoot,
  plugins: [react(), tailwindcss()],
  build: {
    outDir: `${consoleRoot}/dist`,
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 400,
    rolldownOptions: {
      treeshake: {
        // packages/protocol is pure by the house rules (no import-time effects), but its
        // package.json does not say so: without this, importing any one schema from its barrel
        // keeps every module of it, and every schema is built at start-up, in the first page's
        // chunk. With it, each page's schemas move into that page's chunk (decision 008).
        moduleSideEffects: [{ test: /\/packages\/protocol\/src\//, sideEffects: false }],
      },
    },
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    strictPort: false,
    // Same origin for the browser: the BFF sees the dev server's Host and Origin unchanged.
    proxy: { '/bff': { target: bffTarget, ws: true } },
  },
  preview: { host: '127.0.0.1', proxy: { '/bff': { target: bffTarget, ws: true } } },
});
