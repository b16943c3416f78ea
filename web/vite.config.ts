// Vite builds the client into web/dist, which `papan serve` serves at /.
// Unit tests (vitest) run in Node with no DOM: they cover the headless board state,
// the pure transitions and the render description.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  base: './',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2020',
    sourcemap: false,
    chunkSizeWarningLimit: 400,
  },
  // The analysis worker is an ES module (it imports the WebAssembly glue, which uses import.meta.url).
  worker: { format: 'es' },
  server: {
    // `npm run dev` with a server on :8080: proxy the API and the WebSocket.
    proxy: {
      '/api': 'http://127.0.0.1:8080',
      '/ws': { target: 'ws://127.0.0.1:8080', ws: true },
    },
  },
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
  },
});
