// Bundles src/app.jsx into dist/app.js (one self-contained IIFE) and copies
// index.html next to it; the same for the MCP Apps host page (src/mcp-host.*). `npm run build` runs this.
import { build } from 'esbuild';
import { copyFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
await mkdir(join(here, 'dist'), { recursive: true });
await build({
  entryPoints: [join(here, 'src/app.jsx')],
  outfile: join(here, 'dist/app.js'),
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: ['chrome120'],
  jsx: 'automatic',
  minify: false,
  sourcemap: false,
  define: { 'process.env.NODE_ENV': '"development"' },
  logLevel: 'warning',
});
await copyFile(join(here, 'src/index.html'), join(here, 'dist/index.html'));
// The MCP Apps host page (lib/mcp-app.mjs): AppBridge around a sandboxed iframe.
await build({
  entryPoints: [join(here, 'src/mcp-host.js')],
  outfile: join(here, 'dist/mcp-host.js'),
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: ['chrome120'],
  logLevel: 'warning',
});
await copyFile(join(here, 'src/mcp-host.html'), join(here, 'dist/mcp-host.html'));
console.log('built dist/app.js, dist/index.html, dist/mcp-host.js and dist/mcp-host.html');
