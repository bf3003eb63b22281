// A minimal MCP Apps host page for the browser test (lib/mcp-app.mjs): it
// renders the worker's ui://genui/form resource the way web hosts do, in a
// sandboxed iframe (opaque origin, scripts only) talking to the page over
// postMessage through @modelcontextprotocol/ext-apps's AppBridge. Tool calls
// from the view go to window.callMcpTool, which the test exposes: it POSTs
// them to the worker's /mcp from node, as a host's backend would. Model
// context updates are recorded in window.__modelContext for the assertions.
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

window.__modelContext = [];
window.__toolCalls = [];

window.startHost = async ({ html, toolInput, toolResult }) => {
  const frame = document.createElement('iframe');
  frame.id = 'app-frame';
  frame.setAttribute('sandbox', 'allow-scripts allow-forms');
  frame.title = 'genui form';
  document.getElementById('host').append(frame);
  const bridge = new AppBridge(
    null,
    { name: 'genui-test-host', version: '1.0.0' },
    { serverTools: {}, updateModelContext: { text: {}, structuredContent: {} }, message: { text: {} } },
    { hostContext: { theme: 'light', displayMode: 'inline', availableDisplayModes: ['inline'], locale: 'en-US' } },
  );
  bridge.oncalltool = async (params) => {
    window.__toolCalls.push(params);
    return window.callMcpTool(params);
  };
  bridge.onupdatemodelcontext = async (params) => {
    window.__modelContext.push(params);
    return {};
  };
  bridge.onsizechange = ({ height }) => {
    if (height) frame.style.height = `${Math.ceil(height) + 4}px`;
  };
  const initialized = new Promise((ok) => {
    bridge.oninitialized = ok;
  });
  // Listen first: the view sends ui/initialize as soon as its script runs.
  // The iframe's window stays the same object across the srcdoc load.
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
  frame.srcdoc = html;
  await initialized;
  await bridge.sendToolInput({ arguments: toolInput });
  await bridge.sendToolResult(toolResult);
  window.__hostReady = true;
};
