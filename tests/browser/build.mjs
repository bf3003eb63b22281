// Bundles src/app.jsx into dist/app.js (one self-contained IIFE) and copies
// index.html next to it; the same for the MCP Apps host page (src/mcp-host.*)
// and the CopilotKit chat page (src/copilotkit-loop.*). `npm run build` runs this.
import { build } from 'esbuild';
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
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
// The CopilotKit chat page (copilotkit-loop.mjs). It imports the TypeScript
// client from clients/ts/dist (built by `npm run build` there). As when an
// app installs the client, its peer dependencies (react, @copilotkit/react-core,
// @jsonforms/*, @rjsf/*) are the app's, resolved here, so the page holds one
// copy of each; its own dependencies come from its own install.
const clientDir = resolve(here, '../../clients/ts');
if (!existsSync(join(clientDir, 'dist/copilotkit.js'))) {
  throw new Error(`${clientDir}/dist/copilotkit.js is missing: run \`npm ci && npm run build\` in clients/ts first`);
}
const clientPeers = Object.keys(JSON.parse(readFileSync(join(clientDir, 'package.json'), 'utf8')).peerDependencies);
const packageOf = (specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
const clientPeersFromHere = {
  name: 'client-peers-from-tests-browser',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.importer.startsWith(clientDir) && clientPeers.includes(packageOf(args.path))
        ? b.resolve(args.path, { kind: args.kind, resolveDir: here })
        : undefined,
    );
  },
};
await build({
  entryPoints: [join(here, 'src/copilotkit-loop.jsx')],
  outfile: join(here, 'dist/copilotkit-loop.js'),
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: ['chrome120'],
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': '"development"' },
  plugins: [clientPeersFromHere],
  // The chat's stylesheet pulls in KaTeX's fonts; the page never renders maths offline.
  loader: { '.woff2': 'empty', '.woff': 'empty', '.ttf': 'empty' },
  logLevel: 'warning',
});
await copyFile(join(here, 'src/copilotkit-loop.html'), join(here, 'dist/copilotkit-loop.html'));
console.log('built dist/app.js, dist/index.html, dist/mcp-host.js, dist/mcp-host.html and dist/copilotkit-loop.*');
