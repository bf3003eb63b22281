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

// The form's own script (format=html's HTML_SCRIPT, inlined before this
// one by build.mjs) defines window.genuiForm = {init, fill, collect, rules}:
// array rows, rules, typed values, exactly as on a hosted page.
const genuiForm = () => window.genuiForm;

function render() {
  const result = state.result;
  if (!result) return status("Making the form…");
  const content = result.structuredContent || {};
  if (result.isError || content.error) {
    return status(`The form could not be made: ${content.error?.message || textOf(result)}`);
  }
  if (typeof content.markup !== "string" || !content.markup) {
    return status("The tool result carries no form markup.");
  }
  if (state.rendered) return;
  state.rendered = true;
  root.innerHTML = content.markup;
  const form = root.querySelector("form");
  if (!form) return status("The form markup holds no form.");
  genuiForm().init(form);
  // The server checks every answer and its errors show beside their fields;
  // the browser's own bubbles would show only the first, outside the page.
  form.noValidate = true;
  fillFrom(form, state.input?.data);
  genuiForm().rules(form);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submit(form, content.specHash, event.submitter);
  });
}

// Field by field from the top: genuiForm.fill(form, data) with the root
// pointer "" also matches the form's unnamed buttons (issue 18's form.js).
function fillFrom(form, data) {
  if (!data || typeof data !== "object" || Array.isArray(data)) return;
  for (const [key, value] of Object.entries(data)) {
    genuiForm().fill(form, value, `/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`);
  }
}

function textOf(result) {
  return (result.content || []).filter((c) => c.type === "text").map((c) => c.text).join(" ");
}

// An approval's buttons carry the decision as their name (a JSON Pointer) and value.
function withDecision(data, submitter) {
  const name = submitter?.getAttribute("name");
  if (!name?.startsWith("/")) return data;
  let value = submitter.value;
  try {
    value = JSON.parse(value);
  } catch {
    // a plain string value
  }
  let node = data;
  const tokens = name.split("/").slice(1).map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
  tokens.forEach((token, i) => {
    if (i === tokens.length - 1) node[token] = value;
    else node = node[token] ??= {};
  });
  return data;
}

async function submit(form, specHash, submitter) {
  clearErrors(form);
  const data = withDecision(genuiForm().collect(form), submitter);
  let result;
  try {
    result = await app.callServerTool({ name: SUBMIT_TOOL, arguments: { specHash, data, ...(state.input?.toolCallId ? { toolCallId: state.input.toolCallId } : {}) } });
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
  for (const node of form.querySelectorAll(".mcp-error, .summary")) node.remove();
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
    note.className = "genui-error mcp-error";
    note.id = `mcp-error-${entry.pointer}`;
    note.textContent = entry.message;
    control.setAttribute("aria-invalid", "true");
    control.setAttribute("aria-describedby", `${control.getAttribute("aria-describedby") || ""} ${note.id}`.trim());
    (control.closest(".genui-field") || control.parentElement).append(note);
  }
  if (unplaced.length || !fields.length) showSummary(form, unplaced.length ? unplaced : [error?.message || fallback]);
}

app.connect().then(() => follow(app.getHostContext()), (error) => status(`Could not reach the host: ${error.message || error}`));
