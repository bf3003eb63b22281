// `npm test`: one `wrangler dev` for every browser test file. It starts the
// worker once with what every file needs (hosted.mjs's webhook secret and
// plain-http callbacks to its 127.0.0.1 listener; contracts checked), then
// runs the files one after another with GENUI_BASE_URL naming it, and stops
// it. With GENUI_BASE_URL already set, that worker is used as it is (it
// must carry the same vars for hosted.mjs).
//
//   node test.mjs [file.mjs ...]      (default: every file below)
import { spawnSync } from 'node:child_process';
import { BROWSER_WEBHOOK_SECRET, startWorker } from './lib/servers.mjs';

const FILES = ['run.mjs', 'playground.mjs', 'hosted.mjs', 'issue17.mjs', 'catalog.mjs', 'designed.mjs', 'interrupt.mjs', 'copilotkit-loop.mjs'];
const files = process.argv.slice(2).length ? process.argv.slice(2) : FILES;

let worker = null;
if (!process.env.GENUI_BASE_URL) {
  const secs = Number(process.env.GENUI_BROWSER_STARTUP_SECS ?? 300);
  worker = await startWorker({
    timeoutMs: secs * 1000,
    log: (m) => console.log(m),
    vars: { WEBHOOK_SECRET: BROWSER_WEBHOOK_SECRET, WEBHOOK_ALLOW_HTTP_CALLBACKS: 'true' },
  });
}
const env = { ...process.env, GENUI_BASE_URL: process.env.GENUI_BASE_URL ?? worker.baseUrl };
const run = spawnSync(process.execPath, ['--test', '--test-concurrency=1', ...files], { stdio: 'inherit', env });
await worker?.stop();
process.exit(run.status ?? 1);
