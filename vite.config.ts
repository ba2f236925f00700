import tailwindcss from '@tailwindcss/vite';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { inlineStylesheets } from './apps/console/src/app/boot/inline-stylesheets.ts';

const consoleRoot = fileURLToPath(new URL('./apps/console', import.meta.url));
// `npm run dev` passes BFF_URL when the BFF runs elsewhere than the default port.
const bffTarget = process.env.BFF_URL ?? 'http://127.0.0.1:8080';

/** The entry stylesheet inline in the built index.html: see inlineStylesheets. */
function inlineEntryStylesheet(): Plugin {
  return {
    name: 'settlement:inline-entry-stylesheet',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html, ctx) =>
        inlineStylesheets(html, (fileName) => {
          const asset = ctx.bundle?.[fileName];
          if (asset?.type !== 'asset') return null;
          return typeof asset.source === 'string'
            ? asset.source
            : new TextDecoder().decode(asset.source);
        }),
    },
  };
}

/**
 * What the landing page (the overview, `/` for every signed-in operator) imports beyond the
 * entry, in one chunk beside the page's own: left to itself, rolldown cut it into fifteen 1-2 KB
 * chunks (page header, panel, query view, amounts, keys...), which over HTTP/1.1 queue for six
 * connections in rounds after the entry has run, on the way to the overview's first paint
 * (Lighthouse: "network dependency tree"). Most of it is the page kit every page shares.
 * Not packages/protocol: its barrel imports every schema, and a group would keep the ones
 * tree-shaking drops (decision 008).
 */
function landingPageKit(landingPage: string): {
  plugin: Plugin;
  isInKit: (id: string) => boolean;
} {
  const kit = new Set<string>();
  return {
    plugin: {
      name: 'settlement:landing-page-kit',
      apply: 'build',
      buildEnd() {
        const staticClosure = (roots: string[]) => {
          const seen = new Set<string>();
          const pending = [...roots];
          while (pending.length > 0) {
            const id = pending.pop();
            if (id === undefined || seen.has(id)) continue;
            seen.add(id);
            pending.push(...(this.getModuleInfo(id)?.importedIds ?? []));
          }
          return seen;
        };
        const ids = [...this.getModuleIds()];
        const entries = ids.filter((id) => this.getModuleInfo(id)?.isEntry);
        const page = ids.find((id) => id.endsWith(landingPage));
        kit.clear();
        if (!page) return;
        const firstPage = staticClosure(entries);
        for (const id of staticClosure([page])) {
          if (id !== page && !firstPage.has(id) && !id.includes('/packages/protocol/')) {
            kit.add(id);
          }
        }
      },
    },
    isInKit: (id) => kit.has(id),
  };
}

const pageKit = landingPageKit('/src/app/routes/overview/overview-page.tsx');

/**
 * react-router's package exports name only its development build (dev warnings on, their
 * messages built on every render of the routes), for production bundles too
 * (remix-run/react-router#14102, open). The build takes the production build beside it; the
 * dev server keeps the warnings.
 */
const reactRouterProduction: Plugin = {
  name: 'settlement:react-router-production',
  apply: 'build',
  config: () => ({
    resolve: {
      alias: [
        {
          find: /^react-router$/,
          // Where the console itself resolves react-router (its dependency, not the root's).
          replacement: join(
            dirname(
              createRequire(join(consoleRoot, 'package.json')).resolve('react-router/package.json'),
            ),
            'dist/production/index.mjs',
          ),
        },
      ],
    },
  }),
};

/** The console's build and dev server. Routes are lazy, so each page is its own chunk. */
export default defineConfig({
  root: consoleRoot,
  plugins: [react(), tailwindcss(), inlineEntryStylesheet(), pageKit.plugin, reactRouterProduction],
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
      output: {
        codeSplitting: {
          groups: [
            { name: 'page-kit', test: pageKit.isInKit, includeDependenciesRecursively: false },
          ],
        },
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
