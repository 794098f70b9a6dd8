import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

// Two pages, both served by the Spring Boot server from web/dist/:
//   dist/index.html          -> /            (Apollo Client infinite scroll)
//   dist/graphiql/index.html -> /graphiql    (GraphiQL 5, Monaco workers bundled)
// Everything (JS, CSS, fonts, web workers) is emitted under dist/assets/: no CDN, no request
// leaves the server's origin.
export default defineConfig({
  root,
  base: '/',
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    // GraphiQL's chunk (React + Monaco) is large by nature.
    chunkSizeWarningLimit: 5000,
    rolldownOptions: {
      input: {
        main: resolve(root, 'index.html'),
        graphiql: resolve(root, 'graphiql/index.html'),
      },
      // React libraries inside GraphiQL start with "use client" (meaningless in a browser bundle).
      onLog(level, log, handler) {
        if (log.code === 'MODULE_LEVEL_DIRECTIVE') return;
        handler(level, log);
      },
    },
  },
  worker: { format: 'es' },
  server: {
    // `npm run dev` against a server started on another port, e.g. DEV_GRAPHQL_ORIGIN=http://127.0.0.1:8191
    proxy: { '/graphql': { target: process.env.DEV_GRAPHQL_ORIGIN || 'http://127.0.0.1:8191', ws: true } },
  },
});
