// The CopilotKit chat page of copilotkit-loop.mjs: a CopilotKit app
// (@copilotkit/react-core/v2's provider and chat) whose frontend tool is the
// worker's `generateUserInterface`, registered with the TypeScript client's
// `useGenerateUserInterface` (clients/ts, built into clients/ts/dist). The
// runtime is served by the test on this page's own origin at
// /api/copilotkit; the client calls the worker at this origin too (the test
// hands those requests to the worker), so no CORS set-up is involved.
//
// Hooks for the node runner:
//
//   window.appReady   true once the chat is mounted
import React from 'react';
import { createRoot } from 'react-dom/client';
import { CopilotChat, CopilotKitProvider } from '@copilotkit/react-core/v2';
import '@copilotkit/react-core/v2/styles.css';
import { materialCells, materialRenderers } from '@jsonforms/material-renderers';
import { Client } from '../../../clients/ts/dist/index.js';
import { useGenerateUserInterface } from '../../../clients/ts/dist/copilotkit.js';

const client = new Client({ baseUrl: window.location.origin });
const formOptions = { jsonformsRenderers: materialRenderers, jsonformsCells: materialCells };

function WorkerTool() {
  useGenerateUserInterface(client, formOptions);
  return null;
}

function App() {
  return (
    <CopilotKitProvider runtimeUrl="/api/copilotkit" showDevConsole={false} enableInspector={false}>
      <WorkerTool />
      <CopilotChat />
    </CopilotKitProvider>
  );
}

createRoot(document.getElementById('root')).render(<App />);
window.appReady = true;
