import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

// What the pages have in common is written once, in shell/: a line `<!-- shell: header purchases -->` in a
// page stands for shell/header.html, with {{page}} replaced by `purchases`. The pages are whole HTML
// files after this (in `npm run dev` too); what is left in a page's own file is its own.
const shell = {
  name: 'page-shell',
  transformIndexHtml: {
    order: 'pre',
    handler: (html) => html.replace(/^[ \t]*<!-- shell: ([\w-]+)(?: (\S+))? -->$/gm, (line, part, page) =>
      readFileSync(resolve(root, 'shell', `${part}.html`), 'utf8').trimEnd().replaceAll('{{page}}', page ?? '')),
  },
};

// Three pages, served by the Spring Boot server from web/dist/ (dev.dynamorelay.web.WebPages):
//   dist/purchases.html      -> /            while the sample schema is served (Apollo Client infinite scroll, live)
//   dist/connections.html    -> /            for any other schema (its root connections, paged and live)
//   dist/graphiql/index.html -> /graphiql    (GraphiQL 5, Monaco workers bundled)
// With `npm run dev`, open /purchases.html or /connections.html.
// Everything (JS, CSS, fonts, web workers) is emitted under dist/assets/: no CDN, no request
// leaves the server's origin.
export default defineConfig({
  root,
  base: '/',
  plugins: [shell],
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    // GraphiQL's chunk (React + Monaco) is large by nature.
    chunkSizeWarningLimit: 5000,
    rolldownOptions: {
      input: {
        purchases: resolve(root, 'purchases.html'),
        connections: resolve(root, 'connections.html'),
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
    proxy: { '/pages': process.env.DEV_GRAPHQL_ORIGIN || 'http://127.0.0.1:8191', '/graphql': { target: process.env.DEV_GRAPHQL_ORIGIN || 'http://127.0.0.1:8191', ws: true } },
  },
});
