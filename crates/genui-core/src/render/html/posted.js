"use strict";
(function () {
  // The success page of a format=html form posted to /v1/submit: hands the
  // AG-UI tool message to the page that embeds the form, if any.
  var holder = document.getElementById("genui-tool-message");
  if (!holder || window.parent === window) return;
  var message;
  try { message = JSON.parse(holder.getAttribute("data-message")); } catch (e) { return; }
  window.parent.postMessage({ type: "genui:tool_message", message: message }, "*");
})();
