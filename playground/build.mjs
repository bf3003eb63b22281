// Builds the playground into dist/ (git-ignored), the directory wrangler.toml
// serves as the worker's static assets:
//
//   dist/index.html   copied from src/index.html
//   dist/app.js       src/main.jsx and everything it imports (React, JSON
//                     Forms, MUI, RJSF, the example fixtures), an ES module
//   dist/chunks/      what the page loads on demand: the A2UI renderer and
//                     the React pane's compiler (sucrase, react-hook-form, zod)
//   dist/app.css      src/styles.css
//
// Cheap when nothing changed: it compares the newest input (src/, this file,
// the lockfile, the fixture directory the examples import) with the stamp
// file .build-stamp and exits in milliseconds. `--force` rebuilds anyway, `--watch`
// rebuilds on every change (wrangler dev picks up new assets by itself).
import { context, build } from 'esbuild';
import { copyFile, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
// Outside dist/, so it is never served.
const stamp = join(here, '.build-stamp');
const fixtures = join(here, '..', 'crates', 'genui-core', 'tests', 'fixtures', 'generate');
const args = new Set(process.argv.slice(2));

/** Newest modification time (ms) under a file or directory. */
async function newest(path) {
  const s = await stat(path).catch(() => null);
  if (!s) return 0;
  if (!s.isDirectory()) return s.mtimeMs;
  let max = s.mtimeMs;
  for (const entry of await readdir(path)) max = Math.max(max, await newest(join(path, entry)));
  return max;
}

const inputs = [join(here, 'src'), join(here, 'build.mjs'), join(here, 'package-lock.json'), fixtures];

const options = {
  entryPoints: [join(here, 'src', 'main.jsx')],
  outdir: dist,
  entryNames: 'app',
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome120', 'firefox120', 'safari16'],
  jsx: 'automatic',
  minify: true,
  sourcemap: false,
  legalComments: 'none',
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
};

async function copyStatic() {
  await copyFile(join(here, 'src', 'index.html'), join(dist, 'index.html'));
  await copyFile(join(here, 'src', 'styles.css'), join(dist, 'app.css'));
}

await mkdir(dist, { recursive: true });

if (args.has('--watch')) {
  const ctx = await context({
    ...options,
    plugins: [{ name: 'static', setup: (b) => b.onEnd(() => copyStatic().then(() => console.log('playground: rebuilt'))) }],
  });
  await ctx.watch();
  console.log('playground: watching src/ (Ctrl-C to stop)');
} else {
  const outputs = ['index.html', 'app.js', 'app.css'].map((f) => join(dist, f));
  const [built, source, present] = await Promise.all([
    newest(stamp),
    Promise.all(inputs.map(newest)).then((t) => Math.max(...t)),
    Promise.all(outputs.map(newest)).then((t) => t.every((m) => m > 0)),
  ]);
  if (!args.has('--force') && present && built > source) {
    process.exit(0);
  }
  const t0 = Date.now();
  // Chunk names carry content hashes: drop the last build's.
  await rm(join(dist, 'chunks'), { recursive: true, force: true });
  await build(options);
  await copyStatic();
  await writeFile(stamp, new Date().toISOString() + '\n');
  console.log(`playground: built dist/ in ${Date.now() - t0} ms`);
}
