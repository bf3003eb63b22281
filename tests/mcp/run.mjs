// The MCP layer: ONE `wrangler dev` (tests/browser's startWorker), then
//  1. the official conformance suite (@modelcontextprotocol/conformance,
//     pinned; it needs Node >= 22, which is why run.sh runs this file with
//     the repository's node 22) for every scenario that applies to a server
//     whose tools are its own, at each protocol version (SCENARIOS below;
//     what does not apply, and why, is in README.md);
//  2. sdk.mjs: the MCP SDK clients (node --test).
// Unexpected conformance failures fail the run; checks that cannot pass for
// a reason of the suite (its own test tools) are listed, each with its
// reason, in expected-failures.yml.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startWorker } from '../browser/lib/servers.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const outDir = resolve(here, '../../out/mcp-conformance');
const SCENARIOS = {
  '2026-07-28': ['server-stateless', 'tools-list', 'resources-list', 'caching', 'sep-2164-resource-not-found', 'dns-rebinding-protection', 'http-header-validation'],
  '2025-11-25': ['server-initialize', 'ping', 'tools-list', 'resources-list', 'dns-rebinding-protection', 'server-session-lifecycle'],
  '2025-06-18': ['server-initialize', 'ping', 'tools-list', 'resources-list'],
};

const log = (line) => console.log(`[mcp] ${line}`);
// Hosted forms on (a WEBHOOK_SECRET), so hosts without the form view get
// their hosted link (sdk.mjs); the conformance scenarios do not touch them.
const worker = await startWorker({ log, vars: { WEBHOOK_SECRET: 'whsec-mcp' } });
let failed = 0;
try {
  const url = `${worker.baseUrl}/mcp`;
  mkdirSync(outDir, { recursive: true });
  for (const [version, scenarios] of Object.entries(SCENARIOS)) {
    for (const scenario of scenarios) {
      const args = [
        join(here, 'node_modules/@modelcontextprotocol/conformance/dist/index.js'), 'server',
        '--url', url, '--scenario', scenario, '--spec-version', version, '--force',
        '--expected-failures', join(here, 'expected-failures.yml'), '-o', join(outDir, version),
      ];
      const run = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 120_000 });
      const ok = run.status === 0;
      log(`conformance ${version} ${scenario}: ${ok ? 'pass' : `FAIL (exit ${run.status})`}`);
      if (!ok) {
        failed++;
        console.log(run.stdout.slice(-4000), run.stderr.slice(-2000));
      }
    }
  }
  const sdk = spawnSync(process.execPath, ['--test', '--test-concurrency=1', join(here, 'sdk.mjs')], {
    stdio: 'inherit',
    env: { ...process.env, MCP_URL: url },
  });
  if (sdk.status !== 0) failed++;
} finally {
  await worker.stop();
}
log(failed ? `${failed} step(s) failed` : 'all passed');
process.exit(failed ? 1 : 0);
