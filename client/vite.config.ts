import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import type { ProxyOptions } from 'vite';
import { defineConfig } from 'vitest/config';

/** The repository root: the client imports realtime/contract.json from there. */
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** The app's version (client/package.json), written to the user record as `version`. */
const appVersion = (JSON.parse(readFileSync(new URL('package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** Where the Python server listens in development (PROTOCOL.md section 7, PORT 8000). */
const apiTarget = 'http://127.0.0.1:8000';

/**
 * The paths the Python server answers itself (API, sign-in, dev helpers, socket, Stripe
 * webhook, clinic documents under /files/, health), from realtime/contract.json: the one list
 * the server also uses to never answer them with the app shell. Everything else (including
 * client routes such as /downloads/...) is the client's, served by Vite with its SPA fallback.
 */
const serverPathPrefixes = (
  JSON.parse(readFileSync(new URL('../realtime/contract.json', import.meta.url), 'utf8')) as { serverPathPrefixes: string[] }
).serverPathPrefixes;

/** The dev proxy: each server path to the Python server, the socket's as a websocket. */
const devProxy: Record<string, ProxyOptions> = Object.fromEntries(
  serverPathPrefixes.map((prefix) => [prefix, { target: apiTarget, changeOrigin: false, ws: prefix === '/socket.io/' }]),
);
// A clinic document's upload and retirement are POSTs under the staff screen's path
// (realtime/document_routes.py); a GET there stays the client's.
devProxy['/staff/documents/'] = {
  target: apiTarget,
  changeOrigin: false,
  bypass: (request) => (request.method === 'POST' ? undefined : request.url),
};

/**
 * react-router's production build, beside the development build that its package exports give
 * every bundler (remix-run/react-router#14102): the same code with its development warnings
 * switched off (`ENABLE_DEV_WARNINGS`), which the minifier then drops: 0.5 KB gzip of the first
 * load (docs/benchmarks.md "Client first load"). For `vite build` only: the dev server and the
 * tests keep the warnings.
 */
const reactRouterProduction = fileURLToPath(
  new URL('../production/index.mjs', pathToFileURL(createRequire(import.meta.url).resolve('react-router'))),
);

/** React's `useSyncExternalStore` for the packages that import it through its shim (the file says why). */
const syncExternalStoreShim = fileURLToPath(new URL('src/useSyncExternalStoreShim.ts', import.meta.url));

export default defineConfig(({ command }) => ({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // The Python server serves client/dist with an SPA fallback: assets must be absolute.
  base: '/',
  plugins: [react()],
  resolve: {
    alias: [
      // react-i18next's import of it and react-aria's (`.../shim/index.js`): src/useSyncExternalStoreShim.ts.
      { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: syncExternalStoreShim },
      ...(command === 'build' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : []),
    ],
  },
  define: { __APP_VERSION__: JSON.stringify(appVersion) },
  server: {
    fs: { allow: [repoRoot] },
    proxy: devProxy,
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: each chunk's static imports, read by infra/bench/first_load.py
    // and tests/test_client_first_load.py to measure the first load (docs/benchmarks.md).
    manifest: true,
    // No modulepreload polyfill in the entry (0.2 KB gzip). Without it, Vite's preload helper
    // asks each browser whether it knows `modulepreload` and uses `preload` where it does not
    // (Safari before 17, Firefox before 115); with it, it always wrote `modulepreload` and left
    // the polyfill to fetch those links. index.html's own list is only Rolldown's runtime now
    // (codeSplitting below), which the polyfill, run by the entry, found already loaded.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Everything the entry imports statically (`$initial`) in one chunk, the entry's: by
          // itself Rolldown gives each module that a lazy screen imports too (react, i18next,
          // react-router, the session, ...) a chunk of its own, though the entry has always
          // loaded it first (compare rolldown/rolldown#10263). The browser loaded the same code in 9
          // files instead of 2 (with Rolldown's runtime, kept apart), and 9 files compress less
          // than one: 2.9 KB gzip more (docs/benchmarks.md "Client first load"). Lazy chunks
          // import what they share with the entry from the entry, as some already did.
          groups: [{ name: 'index', tags: ['$initial'] }],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    unstubGlobals: true,
    // CI shares two cores with PostgreSQL, Redis and servers: generous limits, and at most
    // two workers so a loaded machine slows the suite rather than starving a worker.
    testTimeout: 20_000,
    hookTimeout: 20_000,
    maxWorkers: 2,
  },
}));
