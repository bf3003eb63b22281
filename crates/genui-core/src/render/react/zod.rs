//! The zod schema of a `format=react` module, derived from `output`.
//!
//! Owns the translation of one JSON Schema into zod 4 source text. Each
//! keyword becomes the zod construct a person would write when there is
//! one (`z.strictObject`, `z.enum`, `z.discriminatedUnion`, `.int()`,
//! `.multipleOf`), and a refinement otherwise (lengths in code points,
//! `uniqueItems`, `oneOf`'s "exactly one", `if`/`then`/`else`,
//! `dependentRequired`, `not`, ...). A keyword with no faithful
//! translation is listed in [`Zod::unenforced`] with its schema pointer;
//! the module says so at the top and the answer in `meta.warnings`.
//!
//! The text it emits calls a few helpers the module defines once
//! ([`HELPERS`]): `chars`, `isEqual`, `matches`, `pattern`, `forward`.

use super::js::string as lit;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The module's helper functions the derived schema calls.
pub(crate) const HELPERS: &str = r#"// Length in code points, as JSON Schema counts it (not UTF-16 units).
const chars = (s: string): number => [...s].length

// JSON equality, for `const`, `enum` and `uniqueItems` on objects and arrays.
function isEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  return ka.length === kb.length && ka.every((k) => k in b && isEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
}

// A JSON Schema pattern as a JavaScript regular expression; one JavaScript
// cannot compile matches nothing, so the field rejects rather than accepts.
function pattern(source: string): RegExp | null {
  try {
    return new RegExp(source, "u")
  } catch {
    return null
  }
}

const matches = (re: RegExp | null, s: string): boolean => re !== null && re.test(s)

// Reports a sub-schema's issues (a conditional branch) at their own fields.
function forward(ctx: z.RefinementCtx, issues: readonly z.core.$ZodIssue[]): void {
  for (const issue of issues) {
    ctx.addIssue({ code: "custom", message: issue.message, path: [...issue.path] })
  }
}

// `if`/`then`/`else`: the value must match `then` when it matches `test`, else `otherwise`.
function ifThenElse(test: z.ZodType, then: z.ZodType | null, otherwise: z.ZodType | null) {
  return (v: unknown, ctx: z.RefinementCtx) => {
    const branch = test.safeParse(v).success ? then : otherwise
    const result = branch?.safeParse(v)
    if (result && !result.success) forward(ctx, result.error.issues)
  }
}

// `dependentSchemas`: when `key` is present the object must also match `schema`.
function whenPresent(key: string, schema: z.ZodType) {
  return (o: object, ctx: z.RefinementCtx) => {
    if (!(key in o)) return
    const result = schema.safeParse(o)
    if (!result.success) forward(ctx, result.error.issues)
  }
}

// `dependentRequired`: when `key` is present, so must `fields` be.
function requiredWith(key: string, fields: string[]) {
  return (o: object, ctx: z.RefinementCtx) => {
    if (!(key in o)) return
    for (const f of fields) if (!(f in o)) ctx.addIssue({ code: "custom", message: "Required", path: [f] })
  }
}
"#;

/// The helpers `code` calls (and those they call), in [`HELPERS`]' order.
pub(crate) fn helpers(code: &str) -> String {
    super::used_only(HELPERS, code)
}

/// A derivation in progress: the root document, named recursive
/// definitions and what could not be enforced.
pub(crate) struct Zod<'a> {
    root: &'a Value,
    /// `$ref` targets currently being expanded (cycle detection).
    stack: Vec<String>,
    /// Recursive `$ref` targets, by pointer: their const name.
    names: BTreeMap<String, String>,
    /// Schema pointers of keywords the module does not enforce, with why.
    pub(crate) unenforced: Vec<(String, String)>,
    /// Regular expressions, hoisted to module constants: `(name, source)`.
    pub(crate) patterns: Vec<(String, String)>,
    /// Object nesting, for indenting one property per line.
    depth: usize,
    /// Objects and arrays around the expression being built, for
    /// [`MAX_TYPED_NESTING`].
    nesting: usize,
    /// Schemas around the expression being built (each is a call of
    /// [`Zod::expr`]), for [`MAX_EXPANDED_NESTING`].
    open: usize,
}

/// How many schemas deep a `$ref` is still expanded. A parsed schema nests
/// less than this by itself (the body's depth limit); only a chain of
/// distinct definitions, each `$ref`-ing the next, goes further, and there
/// each level is a few stack frames. Past it the reference is
/// `z.unknown()`, reported as not enforced (the server's validation of a
/// submission still checks all of it).
pub(crate) const MAX_EXPANDED_NESTING: usize = 127;

/// How many objects and arrays deep the module's types are inferred. Past
/// it TypeScript may give up inferring the schema's type (TS2589,
/// "excessively deep", seen at 18 on a SchemaStore schema), so the subtree
/// there is typed `z.ZodType<unknown>`: zod still validates all of it, and
/// the form reaches its fields by path as everywhere.
pub(crate) const MAX_TYPED_NESTING: usize = 12;

impl<'a> Zod<'a> {
    pub(crate) fn new(root: &'a Value) -> Self {
        Self {
            root,
            stack: Vec::new(),
            names: BTreeMap::new(),
            unenforced: Vec::new(),
            patterns: Vec::new(),
            depth: 0,
            nesting: 0,
            open: 0,
        }
    }

    /// The zod expression for `schema` found at `at` (a schema pointer).
    pub(crate) fn expr(&mut self, schema: &Value, at: &str) -> String {
        self.open += 1;
        let expr = match schema {
            Value::Bool(true) => "z.unknown()".into(),
            Value::Bool(false) => "z.never()".into(),
            Value::Object(map) => self.object_schema(map, at),
            _ => "z.never()".into(),
        };
        self.open -= 1;
        expr
    }

    /// Declarations of the recursive definitions the expressions refer to
    /// (`const Ref0: z.ZodType<unknown> = z.lazy(...)`), in a stable order.
    pub(crate) fn definitions(&mut self) -> String {
        let mut out = String::new();
        let mut done: Vec<String> = Vec::new();
        while let Some((pointer, name)) = self
            .names
            .iter()
            .find(|(p, _)| !done.contains(p))
            .map(|(p, n)| (p.clone(), n.clone()))
        {
            done.push(pointer.clone());
            let target = self
                .root
                .pointer(&pointer)
                .cloned()
                .unwrap_or(Value::Bool(false));
            self.stack.push(pointer.clone());
            let body = self.expr(&target, &pointer);
            self.stack.pop();
            let _ = writeln!(
                out,
                "// `{}` refers to itself.",
                pointer.replace(['\n', '\r', '\u{2028}', '\u{2029}'], " ")
            );
            let _ = writeln!(
                out,
                "const {name}: z.ZodType<unknown> = z.lazy(() => {body})\n"
            );
        }
        out
    }

    fn skip(&mut self, at: &str, keyword: &str, why: &str) {
        self.unenforced
            .push((format!("{at}/{keyword}"), why.to_owned()));
    }

    fn object_schema(&mut self, map: &Map<String, Value>, at: &str) -> String {
        let mut parts: Vec<String> = Vec::new();
        if let Some(Value::String(reference)) = map.get("$ref") {
            parts.push(self.reference(reference, at));
        }
        for keyword in [
            "$dynamicRef",
            "$recursiveRef",
            "unevaluatedProperties",
            "unevaluatedItems",
            "propertyNames",
            "contentSchema",
        ] {
            if map.contains_key(keyword) && !(keyword == "propertyNames" && simple_names(map)) {
                self.skip(
                    at,
                    keyword,
                    "no zod equivalent; `/v1/submit` still checks it",
                );
            }
        }
        let own = self.own(map, at);
        if let Some(own) = own {
            parts.insert(0, own);
        }
        for (keyword, join) in [("allOf", "all"), ("anyOf", "any"), ("oneOf", "one")] {
            if let Some(Value::Array(branches)) = map.get(keyword) {
                parts.push(self.applicator(branches, &format!("{at}/{keyword}"), join));
            }
        }
        let mut expr = match parts.len() {
            0 => "z.unknown()".to_owned(),
            1 => parts.remove(0),
            _ => {
                let first = parts.remove(0);
                parts.into_iter().fold(first, |acc, p| combine(&acc, &p))
            }
        };
        if let Some(not) = map.get("not") {
            let inner = self.expr(not, &format!("{at}/not"));
            expr = format!("{expr}.refine((v) => !{inner}.safeParse(v).success, {{ message: \"Must not match the excluded shape\" }})");
        }
        if let Some(condition) = map.get("if") {
            expr = self.conditional(expr, condition, map, at);
        }
        expr
    }

    /// The schema's own (non-applicator) keywords, or `None` when it has none.
    fn own(&mut self, map: &Map<String, Value>, at: &str) -> Option<String> {
        if let Some(value) = map.get("const") {
            return Some(literal_schema(std::slice::from_ref(value)));
        }
        if let Some(Value::Array(values)) = map.get("enum") {
            let kept: Vec<Value> = match types_of(map) {
                Some(types) => values
                    .iter()
                    .filter(|v| types.iter().any(|t| type_matches(t, v)))
                    .cloned()
                    .collect(),
                None => values.clone(),
            };
            return Some(literal_schema(&kept));
        }
        let types = types_of(map).or_else(|| implied_type(map));
        let types = types?;
        let nullable = types.iter().any(|t| t == "null") && types.len() == 2;
        let mut exprs: Vec<String> = types
            .iter()
            .filter(|t| !(nullable && *t == "null"))
            .map(|t| self.typed(t, map, at))
            .collect();
        let expr = if exprs.len() == 1 {
            exprs.remove(0)
        } else {
            format!("z.union([{}])", exprs.join(", "))
        };
        Some(if nullable {
            format!("{expr}.nullable()")
        } else {
            expr
        })
    }

    fn typed(&mut self, ty: &str, map: &Map<String, Value>, at: &str) -> String {
        match ty {
            "string" => self.string(map, at),
            "integer" => self.number(map, "z.int()"),
            "number" => self.number(map, "z.number()"),
            "boolean" => "z.boolean()".into(),
            "null" => "z.null()".into(),
            "array" => self.array(map, at),
            "object" => self.object(map, at),
            _ => "z.never()".into(),
        }
    }

    fn string(&mut self, map: &Map<String, Value>, at: &str) -> String {
        let mut out = match map.get("format").and_then(Value::as_str) {
            Some("email") => "z.email()".to_owned(),
            // `new URL` accepts spaces and non-ASCII (it percent-encodes them); a URI has neither.
            Some("uri" | "url") => "z.url().regex(/^[!-~]+$/, \"Must be a URI\")".to_owned(),
            Some("uuid") => "z.uuid()".to_owned(),
            Some("ipv4") => "z.ipv4()".to_owned(),
            Some("ipv6") => "z.ipv6()".to_owned(),
            Some("date") => "z.iso.date()".to_owned(),
            Some("date-time") => "z.iso.datetime({ offset: true })".to_owned(),
            Some("time") => {
                "z.string().regex(/^([01]\\d|2[0-3]):[0-5]\\d:([0-5]\\d|60)(\\.\\d+)?(z|[+-]([01]\\d|2[0-3]):[0-5]\\d)$/i, \"Must be a time such as 09:30:00Z\")".to_owned()
            }
            _ => "z.string()".to_owned(),
        };
        if let Some(n) = map.get("minLength").and_then(Value::as_u64) {
            let _ = write!(
                out,
                ".refine((s) => chars(s) >= {n}, {{ message: {} }})",
                lit(&format!("At least {n} characters"))
            );
        }
        if let Some(n) = map.get("maxLength").and_then(Value::as_u64) {
            let _ = write!(
                out,
                ".refine((s) => chars(s) <= {n}, {{ message: {} }})",
                lit(&format!("At most {n} characters"))
            );
        }
        if let Some(Value::String(source)) = map.get("pattern") {
            let name = self.pattern(source);
            let _ = write!(
                out,
                ".refine((s) => matches({name}, s), {{ message: {} }})",
                lit(&format!("Must match {source}"))
            );
        }
        let _ = at;
        out
    }

    /// Hoists a pattern to a module constant; the name is returned.
    fn pattern(&mut self, source: &str) -> String {
        // The module compiles with `u`: an Annex B pattern is escaped first.
        let escaped = crate::schema::annex_b_escaped(source);
        let source = escaped.as_deref().unwrap_or(source);
        if let Some((name, _)) = self.patterns.iter().find(|(_, s)| s == source) {
            return name.clone();
        }
        let name = format!("pattern{}", self.patterns.len());
        self.patterns.push((name.clone(), source.to_owned()));
        name
    }

    fn number(&mut self, map: &Map<String, Value>, base: &str) -> String {
        let mut out = base.to_owned();
        let num = |k: &str| map.get(k).filter(|v| v.is_number()).map(Value::to_string);
        let flag = |k: &str| map.get(k).and_then(Value::as_bool).unwrap_or(false);
        if let Some(n) = num("minimum") {
            out += &if flag("exclusiveMinimum") {
                format!(".gt({n})")
            } else {
                format!(".min({n})")
            };
        }
        if let Some(n) = num("maximum") {
            out += &if flag("exclusiveMaximum") {
                format!(".lt({n})")
            } else {
                format!(".max({n})")
            };
        }
        if let Some(n) = num("exclusiveMinimum") {
            let _ = write!(out, ".gt({n})");
        }
        if let Some(n) = num("exclusiveMaximum") {
            let _ = write!(out, ".lt({n})");
        }
        if let Some(n) = num("multipleOf") {
            let _ = write!(out, ".multipleOf({n})");
        }
        out
    }

    fn array(&mut self, map: &Map<String, Value>, at: &str) -> String {
        self.nesting += 1;
        let out = self.array_of(map, at);
        self.nesting -= 1;
        self.typed_up_to_limit(out)
    }

    /// Past [`MAX_TYPED_NESTING`], the expression typed as unknown: only at
    /// the first level past it (its enclosing objects and arrays, now
    /// `self.nesting`, are exactly the limit); deeper ones are inside it.
    fn typed_up_to_limit(&self, expr: String) -> String {
        match self.nesting == MAX_TYPED_NESTING {
            true => format!("({expr} as z.ZodType<unknown>)"),
            false => expr,
        }
    }

    fn array_of(&mut self, map: &Map<String, Value>, at: &str) -> String {
        let prefix = match (map.get("prefixItems"), map.get("items")) {
            (Some(Value::Array(p)), _) => Some((p, "prefixItems", map.get("items"), "items")),
            (None, Some(Value::Array(p))) => {
                Some((p, "items", map.get("additionalItems"), "additionalItems"))
            }
            _ => None,
        };
        let mut out = if let Some((prefix, key, rest, rest_key)) = prefix {
            let items: Vec<String> = prefix
                .iter()
                .enumerate()
                .map(|(i, s)| format!("{}.optional()", self.expr(s, &format!("{at}/{key}/{i}"))))
                .collect();
            let rest = rest.map_or("z.unknown()".to_owned(), |r| {
                self.expr(r, &format!("{at}/{rest_key}"))
            });
            // JSON Schema tuples accept shorter arrays; zod's optional tail
            // elements do the same.
            format!("z.tuple([{}], {rest})", items.join(", "))
        } else {
            let item = map.get("items").map_or("z.unknown()".to_owned(), |s| {
                self.expr(s, &format!("{at}/items"))
            });
            format!("z.array({item})")
        };
        if let Some(n) = map.get("minItems").and_then(Value::as_u64) {
            let _ = write!(
                out,
                ".refine((a) => a.length >= {n}, {{ message: {} }})",
                lit(&format!("At least {n} items"))
            );
        }
        if let Some(n) = map.get("maxItems").and_then(Value::as_u64) {
            let _ = write!(
                out,
                ".refine((a) => a.length <= {n}, {{ message: {} }})",
                lit(&format!("At most {n} items"))
            );
        }
        if map.get("uniqueItems") == Some(&Value::Bool(true)) {
            out += ".refine((a) => a.every((x, i) => a.findIndex((y) => isEqual(x, y)) === i), { message: \"Items must be unique\" })";
        }
        if let Some(contains) = map.get("contains") {
            let inner = self.expr(contains, &format!("{at}/contains"));
            let min = map.get("minContains").and_then(Value::as_u64).unwrap_or(1);
            let max = map.get("maxContains").and_then(Value::as_u64);
            let upper = max.map_or(String::new(), |m| format!(" && n <= {m}"));
            let _ = write!(
                out,
                ".refine((a) => {{ const n = a.filter((x) => {inner}.safeParse(x).success).length; return n >= {min}{upper} }}, {{ message: \"Must contain a matching item\" }})"
            );
        }
        out
    }

    fn object(&mut self, map: &Map<String, Value>, at: &str) -> String {
        self.nesting += 1;
        let out = self.object_of(map, at);
        self.nesting -= 1;
        self.typed_up_to_limit(out)
    }

    fn object_of(&mut self, map: &Map<String, Value>, at: &str) -> String {
        let required: Vec<&str> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let empty = Map::new();
        let properties = map
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let mut fields = Vec::new();
        self.depth += 1;
        for (name, schema) in properties {
            let expr = self.expr(schema, &format!("{at}/properties/{}", escape_token(name)));
            let optional = if required.contains(&name.as_str()) {
                ""
            } else {
                ".optional()"
            };
            fields.push(format!("{}: {expr}{optional}", key(name)));
        }
        for name in required.iter().filter(|n| !properties.contains_key(**n)) {
            fields.push(format!("{}: z.unknown()", key(name)));
        }
        self.depth -= 1;
        let patterns = map.get("patternProperties").and_then(Value::as_object);
        let additional = map.get("additionalProperties");
        let inner = "  ".repeat(self.depth + 1);
        let outer = "  ".repeat(self.depth);
        let body = if fields.is_empty() {
            "{}".to_owned()
        } else {
            format!(
                "{{\n{}{outer}}}",
                fields
                    .iter()
                    .map(|f| format!("{inner}{f},\n"))
                    .collect::<String>()
            )
        };
        let mut out = match (additional, patterns) {
            (Some(Value::Bool(false)), None) => format!("z.strictObject({body})"),
            (Some(schema @ Value::Object(_)), None) => {
                let extra = self.expr(schema, &format!("{at}/additionalProperties"));
                format!("z.object({body}).catchall({extra})")
            }
            _ => format!("z.looseObject({body})"),
        };
        if let Some(patterns) = patterns {
            out = self.pattern_properties(out, properties, patterns, additional, at);
        }
        if let Some(names) = map
            .get("propertyNames")
            .and_then(Value::as_object)
            .filter(|_| simple_names(map))
        {
            let check = self.string(names, &format!("{at}/propertyNames"));
            let _ = write!(out, ".refine((o) => Object.keys(o).every((k) => {check}.safeParse(k).success), {{ message: \"A key is not allowed\" }})");
        }
        if let Some(n) = map.get("minProperties").and_then(Value::as_u64) {
            let _ = write!(
                out,
                ".refine((o) => Object.keys(o).length >= {n}, {{ message: \"Too few entries\" }})"
            );
        }
        if let Some(n) = map.get("maxProperties").and_then(Value::as_u64) {
            let _ = write!(
                out,
                ".refine((o) => Object.keys(o).length <= {n}, {{ message: \"Too many entries\" }})"
            );
        }
        out += &self.dependencies(map, at);
        out
    }

    /// `patternProperties` (and `additionalProperties` beside it): each key
    /// that matches a pattern must match its schema; the others are extra.
    fn pattern_properties(
        &mut self,
        base: String,
        declared: &Map<String, Value>,
        patterns: &Map<String, Value>,
        additional: Option<&Value>,
        at: &str,
    ) -> String {
        let mut checks = Vec::new();
        for (source, schema) in patterns {
            let name = self.pattern(source);
            let expr = self.expr(
                schema,
                &format!("{at}/patternProperties/{}", escape_token(source)),
            );
            checks.push((name, expr));
        }
        let extra = match additional {
            Some(Value::Bool(false)) => Some("z.never()".to_owned()),
            Some(schema @ Value::Object(_)) => {
                Some(self.expr(schema, &format!("{at}/additionalProperties")))
            }
            _ => None,
        };
        let declared: Vec<String> = declared.keys().map(|k| lit(k)).collect();
        let mut body = String::new();
        let _ = write!(body, "const declared: string[] = [{}]\n  for (const [k, x] of Object.entries(o)) {{\n    let matched = false\n", declared.join(", "));
        for (name, expr) in &checks {
            let _ = writeln!(body, "    if (matches({name}, k)) {{\n      matched = true\n      const r = {expr}.safeParse(x)\n      if (!r.success) ctx.addIssue({{ code: \"custom\", message: r.error.issues[0]?.message ?? \"Invalid\", path: [k] }})\n    }}");
        }
        if let Some(extra) = extra {
            let _ = writeln!(body, "    if (!matched && !declared.includes(k) && !{extra}.safeParse(x).success) ctx.addIssue({{ code: \"custom\", message: \"Not allowed here\", path: [k] }})");
        }
        body += "  }";
        format!("{base}.superRefine((o, ctx) => {{\n  {body}\n}})")
    }

    /// `dependentRequired`, `dependentSchemas` and draft-07 `dependencies`.
    fn dependencies(&mut self, map: &Map<String, Value>, at: &str) -> String {
        let mut out = String::new();
        let mut entries: Vec<(String, &Value, String)> = Vec::new();
        for keyword in ["dependentRequired", "dependentSchemas", "dependencies"] {
            if let Some(Value::Object(deps)) = map.get(keyword) {
                for (name, dep) in deps {
                    entries.push((
                        name.clone(),
                        dep,
                        format!("{at}/{keyword}/{}", escape_token(name)),
                    ));
                }
            }
        }
        for (name, dep, pointer) in entries {
            let name_lit = lit(&name);
            match dep {
                Value::Array(fields) => {
                    let fields: Vec<String> =
                        fields.iter().filter_map(Value::as_str).map(lit).collect();
                    let _ = write!(
                        out,
                        ".superRefine(requiredWith({name_lit}, [{}]))",
                        fields.join(", ")
                    );
                }
                schema => {
                    let inner = self.expr(schema, &pointer);
                    let _ = write!(out, ".superRefine(whenPresent({name_lit}, {inner}))");
                }
            }
        }
        out
    }

    fn conditional(
        &mut self,
        expr: String,
        condition: &Value,
        map: &Map<String, Value>,
        at: &str,
    ) -> String {
        if !map.contains_key("then") && !map.contains_key("else") {
            return expr;
        }
        self.depth += 2;
        let test = self.expr(condition, &format!("{at}/if"));
        let then = map
            .get("then")
            .map_or("null".to_owned(), |s| self.expr(s, &format!("{at}/then")));
        let other = map
            .get("else")
            .map_or("null".to_owned(), |s| self.expr(s, &format!("{at}/else")));
        self.depth -= 2;
        let pad = "  ".repeat(self.depth + 1);
        let end = "  ".repeat(self.depth);
        format!("{expr}.superRefine(\n{pad}ifThenElse(\n{pad}  {test},\n{pad}  {then},\n{pad}  {other},\n{pad}),\n{end})")
    }

    /// `allOf`, `anyOf` (a union) or `oneOf` (a union of which exactly one
    /// branch may match; discriminated when a required `const` tells them apart).
    fn applicator(&mut self, branches: &[Value], at: &str, join: &str) -> String {
        let exprs: Vec<String> = branches
            .iter()
            .enumerate()
            .map(|(i, b)| self.expr(b, &format!("{at}/{i}")))
            .collect();
        if exprs.is_empty() {
            return "z.unknown()".into();
        }
        match join {
            "all" => {
                let mut it = exprs.into_iter();
                let first = it.next().unwrap_or_default();
                it.fold(first, |acc, e| combine(&acc, &e))
            }
            _ if exprs.len() == 1 => exprs.into_iter().next().unwrap_or_default(),
            "any" => format!("z.union([{}])", exprs.join(", ")),
            _ => match discriminator(branches) {
                Some(key) => format!(
                    "z.discriminatedUnion({}, [{}])",
                    lit(&key),
                    exprs.join(", ")
                ),
                None => {
                    let list = exprs.join(", ");
                    format!(
                        "z.union([{list}]).superRefine((v, ctx) => {{\n  if ([{list}].filter((s) => s.safeParse(v).success).length > 1) ctx.addIssue({{ code: \"custom\", message: \"Matches more than one alternative\" }})\n}})"
                    )
                }
            },
        }
    }

    fn reference(&mut self, reference: &str, at: &str) -> String {
        let Some(fragment) = reference.strip_prefix('#') else {
            self.skip(at, "$ref", "a reference outside the document");
            return "z.unknown()".into();
        };
        let pointer = percent_encoding::percent_decode_str(fragment)
            .decode_utf8_lossy()
            .into_owned();
        let Some(target) = self.root.pointer(&pointer) else {
            self.skip(
                at,
                "$ref",
                "a reference that does not resolve by JSON Pointer",
            );
            return "z.unknown()".into();
        };
        if self.open >= MAX_EXPANDED_NESTING {
            self.skip(
                at,
                "$ref",
                &format!("a reference nested deeper than {MAX_EXPANDED_NESTING} schemas"),
            );
            return "z.unknown()".into();
        }
        if self.stack.contains(&pointer) || self.names.contains_key(&pointer) {
            let next = format!("Ref{}", self.names.len());
            let name = self.names.entry(pointer).or_insert(next).clone();
            return name;
        }
        self.stack.push(pointer.clone());
        let target = target.clone();
        let out = self.expr(&target, &pointer);
        self.stack.pop();
        out
    }
}

/// Both schemas at once. A pure refinement of anything (`z.unknown()` plus
/// checks, as a conditional alone in an `allOf` gives) is chained onto the
/// other side instead of intersected: the same checks, and a type
/// TypeScript can still expand.
fn combine(left: &str, right: &str) -> String {
    const ANY: &str = "z.unknown()";
    if right == ANY {
        return left.to_owned();
    }
    if left == ANY {
        return right.to_owned();
    }
    match right.strip_prefix(ANY) {
        Some(checks) if checks.starts_with('.') => format!("{left}{checks}"),
        _ => format!("z.intersection({left}, {right})"),
    }
}

/// `propertyNames` with only string keywords, which the module checks on each key.
fn simple_names(map: &Map<String, Value>) -> bool {
    let Some(Value::Object(names)) = map.get("propertyNames") else {
        return false;
    };
    names.keys().all(|k| {
        matches!(
            k.as_str(),
            "pattern" | "minLength" | "maxLength" | "title" | "description" | "type"
        )
    })
}

/// The `type` list of a schema.
fn types_of(map: &Map<String, Value>) -> Option<Vec<String>> {
    match map.get("type")? {
        Value::String(t) => Some(vec![t.clone()]),
        Value::Array(ts) => Some(
            ts.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
        ),
        _ => None,
    }
}

/// A type implied by type-specific keywords when `type` is absent (a form
/// field's schema is of one kind; other kinds would never come from a form).
fn implied_type(map: &Map<String, Value>) -> Option<Vec<String>> {
    let has = |ks: &[&str]| ks.iter().any(|k| map.contains_key(*k));
    let kind = if has(&[
        "properties",
        "required",
        "additionalProperties",
        "patternProperties",
        "minProperties",
        "maxProperties",
        "dependentRequired",
        "dependencies",
    ]) {
        "object"
    } else if has(&[
        "items",
        "prefixItems",
        "minItems",
        "maxItems",
        "uniqueItems",
        "contains",
    ]) {
        "array"
    } else if has(&["minLength", "maxLength", "pattern", "format"]) {
        "string"
    } else if has(&[
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
    ]) {
        "number"
    } else {
        return None;
    };
    Some(vec![kind.to_owned()])
}

fn type_matches(ty: &str, v: &Value) -> bool {
    match ty {
        "string" => v.is_string(),
        "number" => v.is_number(),
        "integer" => v.as_f64().is_some_and(|f| f.fract() == 0.0),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        _ => false,
    }
}

/// `z.enum` for strings, `z.literal` for other scalars, a deep-equality
/// check for objects and arrays.
fn literal_schema(values: &[Value]) -> String {
    if values.is_empty() {
        return "z.never()".into();
    }
    let js: Vec<String> = values.iter().map(super::js::value).collect();
    if values.iter().all(Value::is_string) {
        return format!("z.enum([{}])", js.join(", "));
    }
    if values.iter().all(|v| !v.is_object() && !v.is_array()) {
        return if js.len() == 1 {
            format!("z.literal({})", js[0])
        } else {
            format!("z.literal([{}])", js.join(", "))
        };
    }
    format!("z.unknown().refine((v) => [{}].some((c) => isEqual(v, c)), {{ message: \"Not one of the allowed values\" }})", js.join(", "))
}

/// A required property whose `const` (or single-valued `enum`) differs in
/// every branch: zod then picks the branch by it.
fn discriminator(branches: &[Value]) -> Option<String> {
    let first = branches.first()?.get("properties")?.as_object()?;
    'keys: for key in first.keys() {
        let mut seen: Vec<&Value> = Vec::new();
        for branch in branches {
            let required = branch
                .get("required")
                .and_then(Value::as_array)
                .is_some_and(|r| r.iter().any(|k| k == key.as_str()));
            let object = branch.get("type").is_none_or(|t| t == "object");
            let tag = branch
                .get("properties")
                .and_then(|p| p.get(key))
                .and_then(|p| p.get("const"));
            match tag {
                Some(tag)
                    if required
                        && object
                        && !seen.contains(&tag)
                        && branch.get("$ref").is_none()
                        && keys_simple(branch) =>
                {
                    seen.push(tag)
                }
                _ => continue 'keys,
            }
        }
        return Some(key.clone());
    }
    None
}

/// Branches zod can discriminate: plain objects without applicators or
/// refinements of their own (zod needs each branch to be an object schema).
fn keys_simple(branch: &Value) -> bool {
    let Some(map) = branch.as_object() else {
        return false;
    };
    let refined = [
        "allOf",
        "anyOf",
        "oneOf",
        "not",
        "if",
        "dependentRequired",
        "dependentSchemas",
        "dependencies",
        "minProperties",
        "maxProperties",
        "patternProperties",
        "propertyNames",
    ];
    !refined.iter().any(|k| map.contains_key(*k))
}

/// An object key: bare when it is an identifier, a string literal otherwise.
fn key(name: &str) -> String {
    let ident = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if ident {
        name.to_owned()
    } else {
        lit(name)
    }
}

fn escape_token(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}
