// The A2UI pane of the page under test: renders a worker's format=a2ui
// answer with the reference web renderer, @a2ui/lit through its v0.9 entry
// point (`@a2ui/lit/v0_9`, which also defines <a2ui-surface> and the basic
// catalog's elements) and @a2ui/web_core's MessageProcessor, as an app
// does. Hooks for the node runner:
//
//   window.renderA2ui({messages})  processes the messages, mounts the surface
//   window.a2uiActions             client messages {version, action} the
//                                  surface fired, as a host would POST them
//   window.a2uiDataModel()         the surface's data model (sendDataModel)
import { MessageProcessor } from '@a2ui/web_core/v0_9';
import { basicCatalog } from '@a2ui/lit/v0_9';
import { exampleA2uiCatalog } from './catalog.jsx';

let processor = null;

window.a2uiActions = [];

window.renderA2ui = async (wrapper) => {
  window.unmountRoot();
  window.a2uiActions = [];
  const host = document.createElement('div');
  host.id = 'a2ui-host';
  host.style.padding = '16px';
  host.style.maxWidth = '900px';
  document.getElementById('root').append(host);
  // The app's own catalog beside the basic one: surfaces name which they use.
  processor = new MessageProcessor([basicCatalog, exampleA2uiCatalog], (action) => {
    // The handler gets the inner action, its context resolved; the client
    // message is {version, action} (client_to_server.json).
    window.a2uiActions.push(JSON.parse(JSON.stringify({ version: 'v0.9', action })));
    if (action.name === 'genui.addItem' || action.name === 'genui.removeItem') applyItemEvent(action);
  });
  processor.onSurfaceCreated((surface) => {
    const el = document.createElement('a2ui-surface');
    el.surface = surface;
    host.append(el);
  });
  // Throws on a catalog mismatch or a component its zod schema rejects:
  // the runner reports that as a render failure.
  processor.processMessages(wrapper);
  await new Promise((resolve) => setTimeout(resolve, 100));
  return true;
};

window.a2uiDataModel = () => {
  const model = processor && processor.getClientDataModel();
  return model ? JSON.parse(JSON.stringify(model)) : null;
};

/** The value at a JSON Pointer. */
function at(value, pointer) {
  if (!pointer || pointer === '/') return value;
  return pointer
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((v, k) => (v == null ? undefined : v[k]), value);
}

// The host's part of array editing (the basic catalog has no function that
// changes data): Add appends an empty item, Remove drops the first item equal
// to the one the button's row shows (v0.9 has no index binding).
function applyItemEvent(action) {
  const { array, item } = action.context;
  const model = processor.getClientDataModel()?.surfaces?.[action.surfaceId] ?? {};
  const list = Array.isArray(at(model, array)) ? at(model, array) : [];
  let next = list;
  if (action.name === 'genui.addItem') next = [...list, {}];
  else {
    const index = list.findIndex((x) => JSON.stringify(x) === JSON.stringify(item));
    if (index >= 0) next = list.filter((_, i) => i !== index);
  }
  processor.processMessages([{ version: 'v0.9', updateDataModel: { surfaceId: action.surfaceId, path: array, value: next } }]);
}
