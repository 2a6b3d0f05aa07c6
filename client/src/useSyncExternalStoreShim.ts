/**
 * What `use-sync-external-store/shim` resolves to (vite.config.ts `resolve.alias`): React's own
 * `useSyncExternalStore`. The shim hands out exactly that whenever React has it (React 18 and
 * later), but ships its fallback for older React with it; react-i18next's `useTranslation`
 * imports the shim, so that fallback was part of the first load (0.3 KB gzip, docs/benchmarks.md
 * "Client first load").
 */
export { useSyncExternalStore } from 'react';
