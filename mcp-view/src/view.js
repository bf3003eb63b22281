// The MCP App view ui://genui/form. It talks only to its host, through
// @modelcontextprotocol/ext-apps's App (no network of its own):
//  - the host's tool-input notification brings the call's arguments (the
//    pre-fill `data` arrives only this way, never inside the resource);
//  - the tool result brings structuredContent {specHash, markup, ...}: the
//    data-free form markup of format=html, rendered here and filled from
//    the input;
//  - submit calls submit_user_interface through the host; errors are shown
//    next to their fields (by JSON Pointer), a valid answer goes to the
//    model with ui/update-model-context and a confirmation is shown.
import { App, applyDocumentTheme, applyHostStyleVariables, applyHostFonts } from "@modelcontextprotocol/ext-apps";

const SUBMIT_TOOL = "submit_user_interface";
const root = document.getElementById("root");
const app = new App({ name: "genui-form", version: "1.0.0" }, { availableDisplayModes: ["inline", "fullscreen"] });
const state = { input: null, result: null, rendered: false };

app.ontoolinput = (params) => {
  state.input = params.arguments || {};
  render();
};
app.ontoolresult = (result) => {
  state.result = result;
  render();
};
app.ontoolcancelled = () => status("The form was cancelled.");
app.onhostcontextchanged = (context) => follow(context);
app.onteardown = async () => ({});

function follow(context) {
  if (!context) return;
  if (context.theme) applyDocumentTheme(context.theme);
  if (context.styles?.variables) applyHostStyleVariables(context.styles.variables);
  if (context.styles?.css?.fonts) applyHostFonts(context.styles.css.fonts);
  if (context.locale) document.documentElement.lang = context.locale;
}

function status(text) {
  root.replaceChildren(Object.assign(document.createElement("p"), { className: "status", textContent: text }));
}

function render() {
  const result = state.result;
  if (!result) return status("Making the form…");
  const content = result.structuredContent || {};
  if (result.isError || content.error) {
    return status(`The form could not be made: ${content.error?.message || textOf(result)}`);
  }
  if (typeof content.markup !== "string") {
    return status("This worker sent no form markup (format=html).");
  }
  if (state.rendered) return;
  state.rendered = true;
  root.innerHTML = content.markup;
  const form = root.querySelector("form");
  if (!form) return status("The form markup holds no form.");
  fill(form, state.input?.data);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submit(form, content.specHash);
  });
}

function textOf(result) {
  return (result.content || []).filter((c) => c.type === "text").map((c) => c.text).join(" ");
}

// Form controls are named by their fields' JSON Pointers (format=html).
function pointerGet(data, pointer) {
  let value = data;
  for (const token of pointer.split("/").slice(1)) {
    if (value == null || typeof value !== "object") return undefined;
    value = value[token.replaceAll("~1", "/").replaceAll("~0", "~")];
  }
  return value;
}

function fill(form, data) {
  if (!data || typeof data !== "object") return;
  for (const control of form.elements) {
    if (!control.name?.startsWith("/")) continue;
    const value = pointerGet(data, control.name);
    if (value === undefined || value === null) continue;
    if (control.type === "checkbox") control.checked = value === true || (Array.isArray(value) && value.includes(control.value));
    else if (control.type === "radio") control.checked = String(value) === control.value;
    else if (control.tagName === "SELECT" && control.multiple && Array.isArray(value)) {
      for (const option of control.options) option.selected = value.map(String).includes(option.value);
    } else if (typeof value !== "object") control.value = String(value);
  }
}

// Values by control type (number, checkbox, multi-select); empty controls
// are left out so that `required` reports them. The server checks the rest.
function collect(form) {
  const data = {};
  for (const control of form.elements) {
    if (!control.name?.startsWith("/") || control.disabled) continue;
    let value;
    if (control.type === "checkbox") value = control.checked;
    else if (control.type === "radio") {
      if (!control.checked) continue;
      value = control.value;
    } else if (control.tagName === "SELECT" && control.multiple) value = [...control.selectedOptions].map((o) => o.value);
    else if (control.value === "") continue;
    else if (control.type === "number" || control.type === "range") value = Number(control.value);
    else value = control.value;
    pointerSet(data, control.name, value);
  }
  return data;
}

function pointerSet(data, pointer, value) {
  const tokens = pointer.split("/").slice(1).map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
  let node = data;
  tokens.forEach((token, i) => {
    if (i === tokens.length - 1) node[token] = value;
    else node = node[token] ??= /^\d+$/.test(tokens[i + 1]) ? [] : {};
  });
}

async function submit(form, specHash) {
  clearErrors(form);
  const data = collect(form);
  let result;
  try {
    result = await app.callServerTool({ name: SUBMIT_TOOL, arguments: { specHash, data, toolCallId: state.input?.toolCallId } });
  } catch (error) {
    return showSummary(form, [`The host could not send the form: ${error.message || error}`]);
  }
  const content = result.structuredContent || {};
  if (result.isError || content.error) return showErrors(form, content.error, textOf(result));
  const message = content.toolMessage;
  await app.updateModelContext({
    content: [{ type: "text", text: `The user submitted the form. Their answer (valid against the schema): ${message?.content ?? JSON.stringify(data)}` }],
    structuredContent: { submitted: true, specHash, toolMessage: message },
  });
  root.replaceChildren(Object.assign(document.createElement("p"), { className: "confirmation", role: "status", textContent: "Thank you, your answer was sent." }));
}

function clearErrors(form) {
  for (const node of form.querySelectorAll(".field-error, .summary")) node.remove();
  for (const node of form.querySelectorAll("[aria-invalid]")) node.removeAttribute("aria-invalid");
}

function showSummary(form, lines) {
  const summary = document.createElement("div");
  summary.className = "summary";
  summary.setAttribute("role", "alert");
  for (const line of lines) summary.append(Object.assign(document.createElement("p"), { textContent: line }));
  form.prepend(summary);
}

function showErrors(form, error, fallback) {
  const fields = error?.payload?.errors || [];
  const unplaced = [];
  for (const entry of fields) {
    const control = [...form.elements].find((c) => c.name === entry.pointer);
    if (!control) {
      unplaced.push(`${entry.pointer || "/"}: ${entry.message}`);
      continue;
    }
    const note = document.createElement("p");
    note.className = "field-error";
    note.id = `error-${entry.pointer}`;
    note.textContent = entry.message;
    control.setAttribute("aria-invalid", "true");
    control.setAttribute("aria-describedby", `${control.getAttribute("aria-describedby") || ""} ${note.id}`.trim());
    control.insertAdjacentElement("afterend", note);
  }
  if (unplaced.length || !fields.length) showSummary(form, unplaced.length ? unplaced : [error?.message || fallback]);
}

app.connect().then(() => follow(app.getHostContext()), (error) => status(`Could not reach the host: ${error.message || error}`));
