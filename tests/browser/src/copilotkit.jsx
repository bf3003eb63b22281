// The CopilotKit pane of the page under test: a worker's format=a2ui answer
// rendered by @copilotkit/a2ui-renderer (React), as a CopilotKit app hosts
// a surface. Hooks for the node runner:
//
//   window.renderCopilotKit({messages})  mounts the surface
//   window.copilotKitActions             what its onAction received ({userAction})
//   window.copilotKitDataModel()         the surface's data model
//
// CopilotKit 1.74's basic catalog still carries the id A2UI used before
// v0.9's catalog move (.../v0_9/basic_catalog.json); the spec's id is
// .../v0_9/catalogs/basic/catalog.json. A host registers the catalog under
// the id its surfaces name, as here; the components are the same.
import React from 'react';
import { createRoot } from 'react-dom/client';
import { A2UIProvider, A2UIRenderer, basicCatalog, injectStyles, useA2UIActions } from '@copilotkit/a2ui-renderer';

let root = null;
let api = null;
let surfaceId = null;
window.copilotKitActions = [];

function Feed({ messages }) {
  api = useA2UIActions();
  React.useEffect(() => api.processMessages(messages), [messages]);
  return null;
}

/** The surface's data model (CopilotKit keeps it in its SurfaceModel). */
window.copilotKitDataModel = () => {
  const model = api?.getSurface(surfaceId)?.dataModel?.get('/');
  return model === undefined ? null : JSON.parse(JSON.stringify(model));
};

// The host's part of array editing, as in src/a2ui.js: Add appends an empty
// item, Remove drops the first item equal to the row's.
function applyItemEvent({ name, context }) {
  const list = [].concat(api.getSurface(surfaceId)?.dataModel?.get(context.array) ?? []);
  const index = list.findIndex((x) => JSON.stringify(x) === JSON.stringify(context.item));
  const next = name === 'genui.addItem' ? [...list, {}] : list.filter((_, i) => i !== index);
  api.processMessages([{ version: 'v0.9', updateDataModel: { surfaceId, path: context.array, value: next } }]);
}

function onAction(message) {
  window.copilotKitActions.push(JSON.parse(JSON.stringify(message)));
  const action = message.userAction;
  if (action?.name === 'genui.addItem' || action?.name === 'genui.removeItem') applyItemEvent(action);
}

window.renderCopilotKit = async (wrapper) => {
  root?.unmount();
  window.unmountRoot();
  window.copilotKitActions = [];
  const created = wrapper.messages.find((m) => m.createSurface).createSurface;
  const catalog = { ...basicCatalog, id: created.catalogId };
  surfaceId = created.surfaceId;
  injectStyles();
  const host = document.createElement('div');
  host.id = 'copilotkit-host';
  host.style.padding = '16px';
  host.style.maxWidth = '900px';
  document.getElementById('root').append(host);
  root = createRoot(host);
  root.render(
    <A2UIProvider catalog={catalog} onAction={onAction}>
      <Feed messages={wrapper.messages} />
      <A2UIRenderer surfaceId={created.surfaceId} />
    </A2UIProvider>,
  );
  await new Promise((resolve) => setTimeout(resolve, 200));
  return true;
};
