"use strict";
(function () {
  var N = "__N__";
  function enc(p) {
    var out = "f";
    for (var i = 0; i < p.length; i++) {
      var c = p.charCodeAt(i);
      if (c === 47) out += ".";
      else if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95) out += p[i];
      else out += "-" + c.toString(16) + "-";
    }
    return out;
  }
  function esc(t) { return String(t).replace(/~/g, "~0").replace(/\//g, "~1"); }
  function tokens(p) {
    return p === "" ? [] : p.slice(1).split("/").map(function (t) { return t.replace(/~1/g, "/").replace(/~0/g, "~"); });
  }
  function each(list, f) { Array.prototype.forEach.call(list, f); }
  function named(form, name) {
    return Array.prototype.filter.call(form.elements, function (el) { return el.name === name; });
  }

  // Rows: a template row's pointers and ids carry N; a clone gets a number.
  function renumber(root, from, to) {
    var idFrom = enc(from), idTo = enc(to);
    each(root.querySelectorAll("*"), function (el) {
      ["name", "data-pointer", "data-rule-on"].forEach(function (a) {
        var v = el.getAttribute(a);
        if (v !== null && (v === from || v.indexOf(from + "/") === 0)) el.setAttribute(a, to + v.slice(from.length));
      });
      ["id", "for", "aria-describedby", "aria-labelledby"].forEach(function (a) {
        var v = el.getAttribute(a);
        if (v !== null) el.setAttribute(a, v.split(idFrom).join(idTo));
      });
      if (el.tagName === "TEMPLATE") renumber(el.content, from, to);
    });
  }
  function list(arr) { return arr.querySelector(":scope > ol"); }
  function relabel(arr) {
    each(list(arr).children, function (row, i) {
      var legend = row.querySelector(":scope > fieldset > legend");
      var text = legend.getAttribute("data-label") + " " + (i + 1);
      legend.textContent = text;
      var hidden = row.querySelector(":scope > fieldset > .genui-remove > .genui-hidden");
      if (hidden) hidden.textContent = text;
    });
    var max = arr.getAttribute("data-max");
    arr.querySelector(":scope > .genui-add").disabled = !!max && list(arr).children.length >= +max;
  }
  function add(arr) {
    var max = arr.getAttribute("data-max");
    if (max && list(arr).children.length >= +max) return null;
    var n = +arr.getAttribute("data-next");
    arr.setAttribute("data-next", n + 1);
    var frag = arr.querySelector(":scope > template").content.cloneNode(true);
    var p = arr.getAttribute("data-pointer");
    renumber(frag, p + "/" + N, p + "/" + n);
    list(arr).appendChild(frag);
    var row = list(arr).lastElementChild;
    enhance(row);
    relabel(arr);
    return row;
  }
  function enhance(scope) {
    each(scope.querySelectorAll(".genui-add, .genui-remove"), function (b) { b.hidden = false; });
  }

  // The form's values as JSON, typed as the server types a post.
  function typed(el) {
    var v = el.value;
    if (el.tagName === "SELECT") {
      var o = el.options[el.selectedIndex];
      if (!o || o.value === "") return undefined;
      return o.hasAttribute("data-value") ? JSON.parse(o.getAttribute("data-value")) : v;
    }
    if (el.hasAttribute("data-value")) return JSON.parse(el.getAttribute("data-value"));
    var kind = el.getAttribute("data-kind");
    if (el.type === "hidden" && v === "false") return false;
    if (kind === "boolean") return true;
    if (v === "") return undefined;
    if (kind === "integer" || kind === "number") return isNaN(Number(v)) ? v : Number(v);
    if (kind === "json") { try { return JSON.parse(v); } catch (e) { return v; } }
    if (el.type === "datetime-local" || el.type === "time") return v.length === 5 || v.length === 16 ? v + ":00Z" : v + "Z";
    return v;
  }
  function put(out, path, v, multi) {
    var at = out;
    for (var i = 0; i < path.length - 1; i++) {
      if (at[path[i]] === undefined) at[path[i]] = /^\d+$/.test(path[i + 1]) ? [] : {};
      at = at[path[i]];
    }
    var last = path[path.length - 1];
    if (multi) (at[last] = at[last] || []).push(v);
    else if (!(v === false && at[last] === true)) at[last] = v;
  }
  function dense(v) {
    if (Array.isArray(v)) return v.filter(function (x) { return x !== undefined; }).map(dense);
    if (v && typeof v === "object") { Object.keys(v).forEach(function (k) { v[k] = dense(v[k]); }); }
    return v;
  }
  function collect(form, all) {
    var out = {};
    each(form.elements, function (el) {
      if (!el.name || el.name[0] !== "/" || (el.disabled && !all)) return;
      if ((el.type === "checkbox" || el.type === "radio") && !el.checked) return;
      var v = typed(el);
      if (v !== undefined) put(out, tokens(el.name), v, el.hasAttribute("data-multi"));
    });
    return dense(out);
  }
  function get(data, pointer) {
    return tokens(pointer).reduce(function (v, t) { return v === undefined || v === null ? undefined : v[t]; }, data);
  }

  // Rules: the subset of JSON Schema the plan's conditions use.
  function kind(v) {
    if (v === null) return "null";
    if (Array.isArray(v)) return "array";
    if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
    return typeof v;
  }
  function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }
  function valid(v, s) {
    if (s === true || s === undefined) return true;
    if (s === false) return false;
    if (v === undefined) return !("const" in s || "enum" in s || "type" in s);
    var t = kind(v), ok = true;
    if (s.type !== undefined) {
      var types = [].concat(s.type);
      ok = ok && (types.indexOf(t) >= 0 || (t === "integer" && types.indexOf("number") >= 0));
    }
    if ("const" in s) ok = ok && same(v, s.const);
    if (s.enum) ok = ok && s.enum.some(function (e) { return same(v, e); });
    if (t === "number" || t === "integer") {
      if (s.minimum !== undefined) ok = ok && v >= s.minimum;
      if (s.maximum !== undefined) ok = ok && v <= s.maximum;
      if (typeof s.exclusiveMinimum === "number") ok = ok && v > s.exclusiveMinimum;
      if (typeof s.exclusiveMaximum === "number") ok = ok && v < s.exclusiveMaximum;
    }
    if (t === "string") {
      if (s.minLength !== undefined) ok = ok && v.length >= s.minLength;
      if (s.maxLength !== undefined) ok = ok && v.length <= s.maxLength;
      if (s.pattern) { try { ok = ok && new RegExp(s.pattern, "u").test(v); } catch (e) { /* the server decides */ } }
    }
    if (t === "object") {
      (s.required || []).forEach(function (k) { ok = ok && v[k] !== undefined; });
      Object.keys(s.properties || {}).forEach(function (k) { if (v[k] !== undefined) ok = ok && valid(v[k], s.properties[k]); });
    }
    if (t === "array") {
      if (s.minItems !== undefined) ok = ok && v.length >= s.minItems;
      if (s.maxItems !== undefined) ok = ok && v.length <= s.maxItems;
      if (s.contains !== undefined) ok = ok && v.some(function (x) { return valid(x, s.contains); });
      if (s.items !== undefined && !Array.isArray(s.items)) ok = ok && v.every(function (x) { return valid(x, s.items); });
    }
    if (s.not !== undefined) ok = ok && !valid(v, s.not);
    if (s.allOf) ok = ok && s.allOf.every(function (x) { return valid(v, x); });
    if (s.anyOf) ok = ok && s.anyOf.some(function (x) { return valid(v, x); });
    if (s.oneOf) ok = ok && s.oneOf.filter(function (x) { return valid(v, x); }).length === 1;
    return ok;
  }
  function rules(form) {
    var data = collect(form, true);
    each(form.querySelectorAll("[data-rule]"), function (el) {
      var on = el.getAttribute("data-rule-on");
      if (on.indexOf(N) >= 0) return;
      var holds = valid(get(data, on), JSON.parse(el.getAttribute("data-rule")));
      var effect = el.getAttribute("data-rule-effect");
      var hide = (effect === "SHOW" && !holds) || (effect === "HIDE" && holds);
      var off = hide || (effect === "ENABLE" && !holds) || (effect === "DISABLE" && holds);
      el.hidden = hide;
      el.setAttribute("data-off", off ? "true" : "false");
    });
    // A hidden or disabled field is not posted, as a renderer drops it.
    each(form.querySelectorAll("input, select, textarea"), function (el) {
      el.disabled = !!el.closest('[data-off="true"]');
    });
  }

  // Pre-fill from data (a hosted link's URL fragment, an MCP host's input).
  function fill(form, data, base) {
    base = base || "";
    var els = base === "" ? [] : named(form, base);
    if (els.length) {
      els.forEach(function (el) {
        var text = data === null || data === undefined ? "" : typeof data === "string" ? data : JSON.stringify(data);
        if (el.type === "hidden") return;
        if (el.getAttribute("data-kind") === "json") el.value = data === undefined ? "" : JSON.stringify(data, null, 2);
        else if (el.hasAttribute("data-multi")) el.checked = [].concat(data).some(function (d) { return (typeof d === "string" ? d : JSON.stringify(d)) === el.value; });
        else if (el.type === "checkbox") el.checked = data === true;
        else if (el.type === "radio") el.checked = el.value === text;
        else if (el.type === "datetime-local" || el.type === "time") el.value = text.replace(/Z$/, "");
        else el.value = text;
      });
      return;
    }
    if (Array.isArray(data)) {
      var arr = Array.prototype.filter.call(form.querySelectorAll(".genui-array"), function (a) { return a.getAttribute("data-pointer") === base; })[0];
      var rows = arr ? list(arr).children.length : 0;
      for (var i = 0; i < data.length; i++) {
        if (arr && i >= rows && !add(arr)) break;
        var row = arr ? list(arr).children[i] : null;
        var at = row ? row.querySelector("[name]") : null;
        var index = at ? tokens(at.getAttribute("name"))[tokens(base).length] : String(i);
        fill(form, data[i], base + "/" + index);
      }
    } else if (data && typeof data === "object") {
      Object.keys(data).forEach(function (k) { fill(form, data[k], base + "/" + esc(k)); });
    }
  }
  // An approval's prompt shows what is to be approved (`data.action`), as text.
  function prompt(form, data) {
    var p = form.querySelector(".genui-prompt[data-template]");
    if (!p || !data || typeof data.action !== "string") return;
    var level = typeof data.importance === "string" ? data.importance : null;
    var template = p.getAttribute(level ? "data-template-level" : "data-template");
    p.textContent = template.split("{level}").join(level || "").split("{action}").join(data.action);
  }
  function fragmentData() {
    var m = /^#data=(.*)$/.exec(location.hash);
    if (!m) return null;
    try { return { text: decodeURIComponent(m[1]) }; } catch (e) { return { text: "" }; }
  }
  function hex(buf) {
    return Array.prototype.map.call(new Uint8Array(buf), function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }
  function prefill(form) {
    var frag = fragmentData();
    var expect = form.getAttribute("data-expect");
    var salt = form.getAttribute("data-salt") || "";
    var apply = function () {
      if (frag) {
        try {
          var data = JSON.parse(frag.text);
          fill(form, data);
          prompt(form, data);
        } catch (e) { /* not JSON: nothing to fill */ }
      }
      rules(form);
      form.setAttribute("data-ready", "true");
    };
    if (!expect) return apply();
    // Shown values matter: the fragment must be the data the link was made
    // for (its digest salted with the record's salt).
    var text = frag ? frag.text : "";
    crypto.subtle.digest("SHA-256", new TextEncoder().encode(salt + text)).then(function (d) {
      if (hex(d) === expect) return apply();
      var p = document.createElement("p");
      p.className = "genui-error";
      p.setAttribute("role", "alert");
      p.textContent = form.getAttribute("data-mismatch") || "";
      form.replaceWith(p);
    });
  }
  function init(form) {
    enhance(form);
    each(form.querySelectorAll(".genui-array"), relabel);
    form.addEventListener("click", function (e) {
      var b = e.target.closest("button");
      if (!b) return;
      if (b.classList.contains("genui-add")) {
        var row = add(b.closest(".genui-array"));
        var first = row && row.querySelector("input:not([type=hidden]), select, textarea");
        if (first) first.focus();
        rules(form);
      } else if (b.classList.contains("genui-remove")) {
        var arr = b.closest(".genui-array");
        b.closest("li").remove();
        relabel(arr);
        arr.querySelector(":scope > .genui-add").focus();
        rules(form);
      }
    });
    form.addEventListener("input", function () { rules(form); });
    form.addEventListener("change", function () { rules(form); });
    prefill(form);
    var summary = document.getElementById("genui-summary");
    if (summary) summary.focus();
  }
  window.genuiForm = { init: init, fill: fill, collect: collect, rules: rules };
  each(document.querySelectorAll("form.genui-form"), init);
})();
