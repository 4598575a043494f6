// Builds the web console into console/dist, served by the server at /console/ on tenant hosts
// (src/modules/console). `npm run build` runs it; `npm start` runs it when dist/ is stale.
import { writeFile } from 'node:fs/promises';
import path, { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** Files worth compressing: text. Smaller ones fit in a packet either way. */
const COMPRESSIBLE = /\.(js|css|html|svg|json)$/;
const COMPRESS_FROM_BYTES = 1024;

/**
 * Writes a brotli (`.br`, best quality) and a gzip (`.gz`) copy beside every text file of the
 * build, once, at build time: the server sends the one the browser accepts (src/modules/console,
 * @fastify/static's preCompressed) without compressing on each request.
 */
function precompress(): Plugin {
  return {
    name: 'console-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      await Promise.all(
        Object.values(bundle).map(async (file) => {
          if (!COMPRESSIBLE.test(file.fileName)) return;
          const bytes = Buffer.from(file.type === 'chunk' ? file.code : file.source);
          if (bytes.length < COMPRESS_FROM_BYTES) return;
          const path = join(dir, file.fileName);
          await writeFile(
            `${path}.br`,
            brotliCompressSync(bytes, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
              },
            }),
          );
          await writeFile(`${path}.gz`, gzipSync(bytes, { level: constants.Z_BEST_COMPRESSION }));
        }),
      );
    },
  };
}

export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  plugins: [react(), precompress()],
  // The API client (clients/typescript, an npm workspace) from its TypeScript sources; its
  // package exports only its built dist/, which is what its tarball holds.
  resolve: {
    alias: {
      '@omnichannel/management-client': path.join(
        import.meta.dirname,
        '../clients/typescript/src/index.ts',
      ),
    },
  },
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
