// Loaded on demand by the A2UI pane: A2UI's reference web renderer
// (@a2ui/lit through its v0.9 entry point, which defines <a2ui-surface> and
// the basic catalog's elements) fed by @a2ui/web_core's MessageProcessor,
// the way an app hosts a surface.
import { MessageProcessor } from '@a2ui/web_core/v0_9';
import { basicCatalog } from '@a2ui/lit/v0_9';

/** The value at a JSON Pointer. */
function at(value, pointer) {
  if (!pointer || pointer === '/') return value;
  return pointer
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((v, k) => (v == null ? undefined : v[k]), value);
}

/**
 * Mounts the surface of an `a2ui` answer into `host`. `onSubmit` gets the
 * client message {version, action} of a submit or decision button, its
 * context resolved by the renderer (`data` is the form's data model).
 * Returns a function that unmounts it.
 */
export function mountSurface(host, wrapper, onSubmit) {
  host.replaceChildren();
  const processor = new MessageProcessor([basicCatalog], (action) => {
    if (action.name === 'genui.addItem' || action.name === 'genui.removeItem') {
      applyItemEvent(processor, action);
      return;
    }
    onSubmit(JSON.parse(JSON.stringify({ version: 'v0.9', action })));
  });
  processor.onSurfaceCreated((surface) => {
    const el = document.createElement('a2ui-surface');
    el.surface = surface;
    host.append(el);
  });
  processor.processMessages(wrapper.messages);
  return () => host.replaceChildren();
}

// The host's part of array editing: the basic catalog has no function that
// changes data, so the worker's Add and Remove buttons fire events and the
// host applies them (Remove drops the first item equal to the row's item:
// v0.9 has no index binding).
function applyItemEvent(processor, action) {
  const { array, item } = action.context;
  const model = processor.getClientDataModel()?.surfaces?.[action.surfaceId] ?? {};
  const list = Array.isArray(at(model, array)) ? at(model, array) : [];
  let next = [...list, {}];
  if (action.name === 'genui.removeItem') {
    const index = list.findIndex((x) => JSON.stringify(x) === JSON.stringify(item));
    next = index >= 0 ? list.filter((_, i) => i !== index) : list;
  }
  processor.processMessages([{ version: 'v0.9', updateDataModel: { surfaceId: action.surfaceId, path: array, value: next } }]);
}
