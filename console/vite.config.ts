// Builds the web console into console/dist, served by the server at /console/ on tenant hosts
// (src/modules/console). `npm run build` runs it; `npm start` runs it when dist/ is stale.
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  plugins: [react()],
  // The API client (clients/typescript, an npm workspace) from its TypeScript sources.
  resolve: { conditions: ['@omnichannel/source', ...defaultClientConditions] },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Nothing inlined as data: URLs; every file is fetched from the console's own origin.
    assetsInlineLimit: 0,
    target: 'es2022',
  },
  // Reading the tree: no dependency pre-bundling cache in the repository.
  cacheDir: '../node_modules/.vite-console',
});
