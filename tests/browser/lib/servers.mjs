// The processes and servers the runner needs: the worker under
// `wrangler dev` (unless GENUI_BASE_URL names one), the static server of
// dist/, and headless Chromium from Debian.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
/** tests/browser/ */
export const BROWSER_DIR = resolve(here, '..');
/** The repository root (two levels above tests/browser/). */
export const REPO_ROOT = resolve(BROWSER_DIR, '..', '..');

/** The webhook secret of the browser layer's worker (hosted.mjs checks callbacks with it). */
export const BROWSER_WEBHOOK_SECRET = 'whsec-browser';

/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((ok, fail) => {
    const s = net.createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts `wrangler dev` from the repository root on a free port, in its own
 * process group, and waits for GET /healthz. Returns {baseUrl, stop, logPath}.
 */
export async function startWorker({ timeoutMs = 300_000, log = () => {}, vars = {} } = {}) {
  const wrangler = join(REPO_ROOT, 'node_modules', '.bin', 'wrangler');
  if (!existsSync(wrangler)) {
    throw new Error(`${wrangler} is missing: run \`npm install\` in the repository root (or set GENUI_BASE_URL)`);
  }
  const port = await freePort();
  const stateDir = mkdtempSync(join(tmpdir(), 'genui-browser-'));
  const logPath = join(stateDir, 'wrangler.log');
  const logStream = createWriteStream(logPath);
  const env = {
    ...process.env,
    CI: 'true',
    WRANGLER_SEND_METRICS: 'false',
    WRANGLER_SEND_ERROR_REPORTS: 'false',
    PATH: `${join(REPO_ROOT, 'node_modules', '.bin')}:${process.env.PATH ?? ''}`,
  };
  const child = spawn(
    wrangler,
    [
      'dev',
      '--ip', '127.0.0.1',
      '--port', String(port),
      '--show-interactive-dev-session=false',
      '--persist-to', join(stateDir, 'state'),
      // Every answer is checked against its contract inside the worker.
      '--var', 'CHECK_CONTRACTS:true',
      ...Object.entries(vars).flatMap(([k, v]) => ['--var', `${k}:${v}`]),
    ],
    { cwd: REPO_ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout.pipe(logStream);
  child.stderr.pipe(logStream);
  let exited = null;
  child.on('exit', (code, signal) => {
    exited = { code, signal };
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  log(`wrangler dev (pid ${child.pid}) on ${baseUrl}, log ${logPath}`);

  let stopped = false;
  const stop = async ({ keepState = false } = {}) => {
    if (stopped) return;
    stopped = true;
    const group = -child.pid;
    const alive = () => {
      try {
        process.kill(group, 0);
        return true;
      } catch {
        return false;
      }
    };
    try {
      process.kill(group, 'SIGTERM');
    } catch {}
    for (let i = 0; i < 100 && alive(); i++) await sleep(100);
    if (alive()) {
      try {
        process.kill(group, 'SIGKILL');
      } catch {}
      for (let i = 0; i < 50 && alive(); i++) await sleep(100);
    }
    logStream.end();
    if (!keepState) rmSync(stateDir, { recursive: true, force: true });
  };
  // Never leave workerd behind, whatever way node exits.
  process.once('exit', () => {
    if (!stopped) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    }
  });

  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (exited) {
      const tail = readFileSync(logPath, 'utf8').slice(-3000);
      await stop({ keepState: true });
      throw new Error(`wrangler dev exited (${JSON.stringify(exited)}) before /healthz answered; log tail:\n${tail}`);
    }
    try {
      const r = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (r.status === 200) {
        log(`worker ready after ${((Date.now() - started) / 1000).toFixed(1)} s`);
        return { baseUrl, stop, logPath };
      }
    } catch {}
    await sleep(500);
  }
  const tail = readFileSync(logPath, 'utf8').slice(-3000);
  await stop({ keepState: true });
  throw new Error(`wrangler dev did not answer /healthz within ${timeoutMs / 1000} s; log ${logPath}, tail:\n${tail}`);
}

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css', '.map': 'application/json' };

/** Serves dist/ on a free port of 127.0.0.1. Returns {url, close}. */
/**
 * The worker a test file talks to: `GENUI_BASE_URL` when set (a worker
 * already running), else one started here (bounded by
 * GENUI_BROWSER_STARTUP_SECS, 300 by default). `worker` is null when not
 * ours to stop.
 */
export async function workerForTests(vars = {}) {
  const given = process.env.GENUI_BASE_URL?.replace(/\/$/, '');
  if (given) return { worker: null, baseUrl: given };
  const secs = Number(process.env.GENUI_BROWSER_STARTUP_SECS ?? 300);
  const worker = await startWorker({ timeoutMs: secs * 1000, log: (m) => console.log(m), vars });
  return { worker, baseUrl: worker.baseUrl };
}

export async function startStatic(root = join(BROWSER_DIR, 'dist')) {
  if (!existsSync(join(root, 'app.js'))) throw new Error(`${root}/app.js is missing: run \`npm run build\` first`);
  const server = http.createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = normalize(join(root, path === '/' ? 'index.html' : path));
    if (!file.startsWith(root) || !existsSync(file)) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    res.end(readFileSync(file));
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    close: () => new Promise((ok) => server.close(ok)),
  };
}

/** Chromium flags: headless, and no traffic beyond 127.0.0.1. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * POSTs JSON; returns {status, body (parsed or text), headers}. Under
 * `wrangler dev` a change of the Rust sources triggers a rebuild during
 * which requests hang: on a timeout, wait for /healthz and try once more.
 */
export async function postJson(url, body) {
  try {
    return await postJsonOnce(url, body);
  } catch (e) {
    if (!/no answer/.test(e.message)) throw e;
    const health = new URL('/healthz', url).href;
    for (let i = 0; i < 240; i++) {
      try {
        const r = await fetch(health, { signal: AbortSignal.timeout(2000) });
        if (r.status === 200) break;
      } catch {}
      await sleep(500);
    }
    return postJsonOnce(url, body);
  }
}

async function postJsonOnce(url, body) {
  let r;
  try {
    r = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
  } catch (e) {
    throw new Error(`POST ${url}: ${e.name === 'TimeoutError' ? 'no answer within 60 s' : e.message}`);
  }
  const text = await r.text();
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: r.status, body: parsed, headers: r.headers };
}

/**
 * The worker, the built app served statically and one Chromium page on it,
 * ready (`window.appReady`), for a test file that drives the app like a
 * person. Requests off 127.0.0.1 are aborted; page errors are collected in
 * `errors`. Stop everything with `stopAppPage`.
 */
export async function startAppPage({ width = 1000, height = 700 } = {}) {
  const state = { ...(await workerForTests()) };
  state.static = await startStatic();
  state.browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  state.context = await state.browser.newContext({ viewport: { width, height }, timezoneId: 'UTC', locale: 'en-US' });
  await state.context.route(/^(?!http:\/\/127\.0\.0\.1[:/])/, (route) => route.abort());
  state.page = await state.context.newPage();
  state.page.setDefaultTimeout(8000);
  state.errors = [];
  state.page.on('pageerror', (e) => state.errors.push(e.message));
  await state.page.goto(state.static.url);
  await state.page.waitForFunction(() => window.appReady === true);
  return state;
}

/** Stops what `startAppPage` started; never throws. */
export async function stopAppPage(state) {
  await state.browser?.close().catch(() => {});
  await state.static?.close().catch(() => {});
  await state.worker?.stop().catch(() => {});
}
