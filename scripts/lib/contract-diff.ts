// Classifies every difference between two OpenAPI 3.1 documents of this
// service. The structural diff and the client-side breaking / non-breaking
// call come from api-smart-diff (it resolves $refs and knows that a request
// and a response break in opposite directions); this file adds what no
// library knows: which group of the seed each change reaches, the seed's
// versioning policy (stable vs may-change groups, tolerated unknown values,
// error codes as stable identifiers), and one finding per changed element
// instead of one per operation that happens to reuse it.
import { apiCompare, type Diff } from "api-smart-diff";
import { GROUPS, MCP_GROUP, PRICE_CATEGORY_KEYS, TOLERANCE, groupOf, type Group } from "./contract-policy.ts";

export type Kind = "breaking" | "additive" | "compatible" | "unclassified";
export type Severity = "error" | "warning" | "info";

export interface Finding {
  severity: Severity;
  kind: Kind;
  /** What happened, as a short rule id: field-removed, bound-changed, error-code-removed… */
  rule: string;
  /** The element that changed: a component and the property path inside it, or an operation. */
  subject: string;
  /** The change in words (`maximum 1000 → 500`, `` `x_com` added ``). */
  change: string;
  /** Operations (`POST /v1/mentions`) or MCP components that reach the element. */
  operations: string[];
  /** Groups of the seed those operations belong to. */
  groups: string[];
  /** Why this severity: the policy that applied. */
  reason: string;
}

export interface DiffReport {
  base: { version: string; operations: number };
  current: { version: string; operations: number };
  findings: Finding[];
  /** Differences in descriptions, examples, summaries and other text only. */
  annotations: number;
  counts: Record<Severity, number> & Record<Kind, number>;
}

type Doc = Record<string, any>;
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

/** Examples are annotation by definition and make up most of the document: dropped before diffing. */
function withoutExamples(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutExamples);
  if (!node || typeof node !== "object") return node;
  const out: Doc = {};
  for (const [k, v] of Object.entries(node)) if (k !== "examples" && k !== "example") out[k] = withoutExamples(v);
  return out;
}

const TOOL_PREFIX = "/mcp/tools/";

/**
 * The MCP tool models (`Mcp.<Name>Tool`: a name, an args schema and a result
 * schema) become one synthetic operation each, `POST /mcp/tools/<name>` with
 * the args as request body and the result as 200 response, so the diff
 * library judges them in the right direction (a tool's args break like a
 * request, its result like a response).
 */
function withTools(doc: Doc): Doc {
  const paths: Doc = { ...doc.paths };
  for (const [name, schema] of Object.entries<any>(doc.components?.schemas ?? {})) {
    if (!/^Mcp\..+Tool$/.test(name)) continue;
    const tool = schema?.properties?.name?.enum?.[0] ?? name;
    const json = (s: unknown) => ({ content: { "application/json": { schema: s } } });
    paths[`${TOOL_PREFIX}${tool}`] = {
      post: {
        requestBody: json(schema.properties?.args ?? {}),
        responses: { "200": { description: "tool result", ...json(schema.properties?.result ?? {}) } },
      },
    };
  }
  return { ...doc, paths };
}

/**
 * api-smart-diff does not follow a `$ref` in a response header's schema, so
 * moving an inline header schema to a named one would read as a type change:
 * header schemas are inlined first (they are small scalars).
 */
function inlineHeaderSchemas(doc: Doc): Doc {
  for (const item of Object.values<any>(doc.paths ?? {})) {
    for (const op of Object.values<any>(item ?? {})) {
      for (const res of Object.values<any>(op?.responses ?? {})) {
        for (const h of Object.values<any>(res?.headers ?? {})) {
          let guard = 0;
          while (h?.schema?.$ref && guard++ < 10) {
            const { $ref, ...rest } = h.schema;
            h.schema = { ...lookup(doc, $ref), ...rest };
          }
        }
      }
    }
  }
  return doc;
}

/** Error codes an (error) response can carry: the `error_code` enums under it, through $refs. */
function errorCodesUnder(doc: Doc, node: unknown): Set<string> {
  const codes = new Set<string>();
  const seen = new Set<unknown>();
  const visit = (n: any, depth: number): void => {
    if (!n || typeof n !== "object" || depth > 12 || seen.has(n)) return;
    seen.add(n);
    if (typeof n.$ref === "string") return visit(lookup(doc, n.$ref), depth + 1);
    const ec = n.properties?.error_code;
    if (ec) {
      const target = ec.$ref ? lookup(doc, ec.$ref) : ec;
      for (const v of target?.enum ?? []) if (typeof v === "string") codes.add(v);
      if (typeof target?.const === "string") codes.add(target.const);
    }
    for (const v of Object.values(n)) visit(v, depth + 1);
  };
  visit(node, 0);
  return codes;
}

function refName(ref: string): string {
  return ref
    .replace(/^#\/components\/[^/]+\//, "")
    .replace(/~1/g, "/")
    .replace(/~0/g, "~");
}

function lookup(doc: Doc, ref: string): any {
  return ref
    .replace(/^#\//, "")
    .split("/")
    .reduce((n: any, p) => n?.[p.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
}

/** Components reached from `paths` (transitively through $ref). */
function reachable(doc: Doc): Set<string> {
  const seen = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== "object") return;
    const ref = (node as Doc).$ref;
    if (typeof ref === "string" && !seen.has(ref)) {
      seen.add(ref);
      visit(lookup(doc, ref));
    }
    for (const v of Object.values(node)) visit(v);
  };
  visit(doc.paths);
  return new Set([...seen].map(refName));
}

interface Located {
  /** Deepest named component on the way, or undefined when the element is inline. */
  component?: string;
  /** Readable path inside the component (or the operation): property names, [] for items. */
  tail: string[];
  /** The node at the end of the path (undefined when the walk lost its way). */
  node: any;
  /** The node that holds the last segment (the enum's schema, the properties' object…). */
  parent: any;
  /** Descriptions met along the way, nearest last (for tolerance statements). */
  descriptions: string[];
  /** Every property name passed, across components (`prices`, `transcription`). */
  props: string[];
}

/**
 * Follows an api-smart-diff path through the document as written. The library
 * walks a resolved document: a `$ref` with siblings shows up as `allOf/0`, a
 * plain `$ref` as the target itself; both are followed here, and the last
 * component passed names the element.
 */
function locate(doc: Doc, start: any, segments: Array<string | number>): Located {
  const out: Located = { tail: [], node: start, parent: undefined, descriptions: [], props: [] };
  let node = start;
  const seen = (n: any) => {
    if (n && typeof n === "object" && typeof n.description === "string") out.descriptions.push(n.description);
  };
  seen(node);
  for (let i = 0; i < segments.length; i++) {
    const seg = String(segments[i]);
    let guard = 0;
    while (
      node &&
      typeof node === "object" &&
      typeof node.$ref === "string" &&
      !(seg in node && seg !== "allOf") &&
      guard++ < 20
    ) {
      out.component = refName(node.$ref);
      out.tail = [];
      node = lookup(doc, node.$ref);
      seen(node);
      if (seg === "allOf" && node && !("allOf" in node) && String(segments[i + 1]) === "0") {
        i += 1;
        break;
      }
    }
    if (seg === "allOf" && String(segments[i]) !== seg) continue; // consumed as a $ref with siblings
    out.parent = node;
    node = node?.[seg];
    seen(node);
    const prev = String(segments[i - 1] ?? "");
    if (prev === "properties") {
      out.tail.push(seg);
      out.props.push(seg);
    } else if (seg === "items") out.tail.push("[]");
    else if (prev === "parameters" && node?.name) out.tail.push(`${node.in} ${node.name}`);
    else if (node?.$ref && prev === "parameters") {
      const p = lookup(doc, node.$ref);
      out.tail.push(`${p?.in} ${p?.name}`);
    }
  }
  out.node = node;
  return out;
}

const BOUNDS = new Set([
  "maximum",
  "minimum",
  "exclusiveMaximum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "maxItems",
  "minItems",
  "maxProperties",
  "minProperties",
  "pattern",
  "multipleOf",
  "uniqueItems",
]);

function show(v: unknown): string {
  if (v === undefined) return "—";
  const s = typeof v === "string" ? v : JSON.stringify(v);
  return s.length > 60 ? s.slice(0, 57) + "…" : s;
}

/** Rule id and words for one raw diff, from its last segments. */
function describe(d: Diff, located: Located): { rule: string; change: string } {
  const p = d.path.map(String);
  const last = p[p.length - 1];
  const prev = p[p.length - 2];
  const verb =
    d.action === "add" ? "added" : d.action === "remove" ? "removed" : d.action === "rename" ? "renamed" : "changed";
  if (prev === "enum" && d.action === "replace")
    return { rule: "enum-value-renamed", change: `value \`${show(d.before)}\` renamed to \`${show(d.after)}\`` };
  if (prev === "enum")
    return { rule: `enum-value-${verb}`, change: `value \`${show(d.action === "add" ? d.after : d.before)}\` ${verb}` };
  if (last === "enum") return { rule: "enum-changed", change: `values ${show(d.before)} → ${show(d.after)}` };
  if (prev === "required" || last === "required") {
    const names = prev === "required" ? [d.action === "add" ? d.after : d.before] : [];
    const verbRequired =
      d.action === "add" ? "made required" : d.action === "remove" ? "made optional" : "required list changed";
    return {
      rule:
        d.action === "add" ? "field-made-required" : d.action === "remove" ? "field-made-optional" : "required-changed",
      change: `${names.map((n) => `\`${n}\` `).join("")}${verbRequired}`,
    };
  }
  if (prev === "properties") return { rule: `field-${verb}`, change: `field \`${last}\` ${verb}` };
  if (BOUNDS.has(last)) return { rule: "bound-changed", change: `${last} ${show(d.before)} → ${show(d.after)}` };
  if (last === "type" || last === "format" || last === "const")
    return { rule: "type-changed", change: `${last} ${show(d.before)} → ${show(d.after)}` };
  if (last === "default") return { rule: "default-changed", change: `default ${show(d.before)} → ${show(d.after)}` };
  if (last === "deprecated") return { rule: "deprecated", change: `deprecated ${show(d.before)} → ${show(d.after)}` };
  if (prev === "parameters")
    return { rule: `parameter-${verb}`, change: `parameter ${located.tail[located.tail.length - 1] ?? last} ${verb}` };
  if (last === "requestBody") return { rule: `request-body-${verb}`, change: `request body ${verb}` };
  return {
    rule: "shape-changed",
    change: `${p.slice(-3).join("/")} ${verb}${d.action === "replace" ? `: ${show(d.before)} → ${show(d.after)}` : ""}`,
  };
}

/** The error codes a document names: in its catalogue (`*ErrorCode` components) and in every `error_code` property. */
function codesIn(doc: Doc): { catalogue: Set<string>; bodies: Set<string> } {
  const into = (codes: Set<string>, schema: any) => {
    for (const v of schema?.enum ?? []) if (typeof v === "string") codes.add(v);
    if (typeof schema?.const === "string") codes.add(schema.const);
  };
  const catalogue = new Set<string>();
  const bodies = new Set<string>();
  for (const [name, schema] of Object.entries<any>(doc.components?.schemas ?? {}))
    if (/(^|\.)ErrorCode$/.test(name)) into(catalogue, schema);
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== "object") return;
    const ec = (node as Doc).properties?.error_code;
    if (ec) into(bodies, ec.$ref ? lookup(doc, ec.$ref) : ec);
    for (const v of Object.values(node)) visit(v);
  };
  visit(doc);
  return { catalogue, bodies };
}

function operationCount(doc: Doc): number {
  return Object.values<any>(doc.paths ?? {}).reduce(
    (n, item) => n + Object.keys(item ?? {}).filter((m) => METHODS.includes(m)).length,
    0,
  );
}

interface Raw {
  kind: Kind;
  rule: string;
  subject: string;
  change: string;
  operation: string;
  group: Group;
  reason?: string;
  /** parent element + field name, for rename pairing */
  field?: { parent: string; name: string; action: string };
}

function opName(method: string, path: string): string {
  return path.startsWith(TOOL_PREFIX) ? `MCP ${path.slice(TOOL_PREFIX.length)}` : `${method.toUpperCase()} ${path}`;
}

function groupFor(path: string): Group {
  return path.startsWith(TOOL_PREFIX) ? MCP_GROUP : groupOf(path);
}

/** Compares two documents; `base` is the release a client was built against. */
export function diffContracts(baseDoc: Doc, currentDoc: Doc): DiffReport {
  const before = inlineHeaderSchemas(withTools(withoutExamples(baseDoc) as Doc));
  const after = inlineHeaderSchemas(withTools(withoutExamples(currentDoc) as Doc));
  const { diffs } = apiCompare(before, after);
  const codesBefore = codesIn(before);
  const known = new Set([...codesBefore.catalogue, ...codesBefore.bodies]);
  const raws: Raw[] = [];
  let annotations = 0;

  for (const d of diffs) {
    const lastSegment = String(d.path[d.path.length - 1]);
    const holder = String(d.path[d.path.length - 2] ?? "");
    // the library leaves some text changes unclassified (in header schemas): text is text wherever it is
    // (a property *named* description is not text)
    const text =
      ["description", "summary", "title", "externalDocs"].includes(lastSegment) &&
      !["properties", "required", "enum"].includes(holder);
    if (d.type === "annotation" || text) {
      annotations++;
      continue;
    }
    const p = d.path.map(String);
    const side = d.action === "add" ? after : before;
    let kind: Kind =
      d.type === "breaking"
        ? "breaking"
        : d.type === "unclassified"
          ? "unclassified"
          : d.action === "add"
            ? "additive"
            : "compatible";

    if (p[0] === "paths") {
      const path = p[1];
      if (p.length === 2) {
        // a whole path item appeared or disappeared: one finding per operation
        for (const m of Object.keys(side.paths?.[path] ?? {}).filter((x) => METHODS.includes(x))) {
          const op = opName(m, path);
          raws.push({
            kind: d.action === "add" ? "additive" : "breaking",
            rule: `operation-${d.action === "add" ? "added" : "removed"}`,
            subject: op,
            change: `operation ${d.action === "add" ? "added" : "removed"}`,
            operation: op,
            group: groupFor(path),
          });
        }
        continue;
      }
      const method = p[2];
      if (!METHODS.includes(method)) continue; // path-level parameters/servers: reached through each operation below
      const operation = opName(method, path);
      const group = groupFor(path);
      if (p.length === 3) {
        raws.push({
          kind: d.action === "add" ? "additive" : d.action === "remove" ? "breaking" : kind,
          rule: `operation-${d.action === "add" ? "added" : "removed"}`,
          subject: operation,
          change: `operation ${d.action === "add" ? "added" : "removed"}`,
          operation,
          group,
        });
        continue;
      }
      const located = locate(side, side.paths[path][method], p.slice(3));
      const inResponse = p[3] === "responses";
      const where = inResponse ? `response ${p[4]}` : p[3] === "requestBody" ? "request body" : p[3];
      // a response header is one element across every operation and status that sends it
      const subject =
        inResponse && p[5] === "headers" && p[6]
          ? `response header ${p[6]}`
          : located.component
            ? [located.component, ...located.tail].join(" › ")
            : [operation, where, ...located.tail].join(" › ");
      let { rule, change } = describe(d, located);
      let reason: string | undefined;

      if (inResponse && p.length === 5) {
        rule = `status-${d.action === "add" ? "added" : "removed"}`;
        change = `status ${p[4]} ${d.action === "add" ? "added" : "removed"}`;
        // Decision D-DIFF-NEW-ERROR: a new error status on an existing
        // operation is breaking when it brings an error code the release's
        // clients never saw; one that documents codes of the release's
        // catalogue on one more operation is compatible. New operations bring
        // their codes additively.
        if (d.action === "add" && /^[45]/.test(p[4])) {
          const codes = [...errorCodesUnder(after, located.node)];
          const unknown = codes.filter((c) => !known.has(c));
          kind = unknown.length || !codes.length ? "breaking" : "compatible";
          reason =
            unknown.length || !codes.length
              ? `a new error status on an existing operation${unknown.length ? ` with codes the release does not know: ${unknown.map((c) => `\`${c}\``).join(", ")}` : ""}`
              : `documents codes the release already has: ${codes.map((c) => `\`${c}\``).join(", ")}`;
        }
      }
      if (
        rule === "enum-value-added" &&
        inResponse &&
        located.props[located.props.length - 1] === "error_code" &&
        kind === "breaking"
      ) {
        const code = String(d.after);
        if (known.has(code)) {
          kind = "compatible";
          reason = `\`${code}\` is in the release's catalogue already (D-DIFF-NEW-ERROR)`;
        } else reason = `\`${code}\` is new: clients of the release do not handle it (D-DIFF-NEW-ERROR)`;
      }
      if (rule === "enum-value-renamed") {
        // a renamed value is one removed and one added: a client or a deployment of the release misses it either way
        kind = "breaking";
      }
      if (rule === "enum-value-removed" && inResponse && kind !== "breaking") {
        // Decision D-DIFF-ENUM-REMOVED: a deployment built to the release may
        // still send the value, and a client that acts on it loses the branch.
        kind = "breaking";
        reason = "a response enum value removed: deployments of the release still send it";
      }
      if (rule === "enum-value-added" && inResponse && kind === "breaking") {
        const said = located.descriptions.find((t) => TOLERANCE.test(t));
        if (said) {
          kind = "additive";
          reason = `clients were told to tolerate unknown values: "${said.match(TOLERANCE)![0]}"`;
        }
      }
      if (
        rule === "field-added" &&
        inResponse &&
        PRICE_CATEGORY_KEYS.includes(located.props[located.props.length - 2])
      ) {
        // Seed, Versioning 3: a new price category is additive only because clients tolerate unknown ones.
        const said = located.descriptions.find((t) => TOLERANCE.test(t));
        kind = said ? "additive" : "breaking";
        reason = said
          ? `new price category; the contract tells clients: "${said.match(TOLERANCE)![0]}"`
          : "new price category, and the contract does not tell clients to tolerate unknown categories";
      }
      const field =
        rule === "field-added" || rule === "field-removed"
          ? {
              parent: [operation, subject.split(" › ").slice(0, -1).join(" › ")].join("|"),
              name: located.tail[located.tail.length - 1],
              action: d.action,
            }
          : undefined;
      raws.push({ kind, rule, subject, change, operation, group, reason, field });
      continue;
    }

    // a component reached by an operation (or a tool) is reported there; an unreachable one reaches no client
    if (p[0] === "components" && (p[1] === "schemas" || p[1] === "parameters")) continue;
    if (p[0] === "tags" || p[0] === "info" || p[0] === "externalDocs") {
      annotations++;
      continue;
    }
    // servers, security, security schemes: every group at once
    const { rule, change } = describe(d, locate(side, side, p));
    raws.push({
      kind,
      rule,
      subject: p.join("/"),
      change,
      operation: "(whole API)",
      group: { name: "every group", stability: "stable", prefixes: [] },
    });
  }

  // Decision D-DIFF-ERROR-CODES: error_code values are stable identifiers
  // (seed, Versioning 6): a code that is gone from the whole document is an
  // error whatever group used it; a code that one operation stops listing is
  // a breaking change of that operation, judged by its group.
  const codesAfter = codesIn(after);
  const minus = (a: Set<string>, b: Set<string>) => [...a].filter((c) => !b.has(c));
  const gone = [
    ...new Set([
      ...minus(codesBefore.catalogue, codesAfter.catalogue),
      ...minus(codesBefore.bodies, codesAfter.bodies),
    ]),
  ].sort();
  const fresh = [
    ...new Set([
      ...minus(codesAfter.catalogue, codesBefore.catalogue),
      ...minus(codesAfter.bodies, codesBefore.bodies),
    ]),
  ].sort();
  const findings: Finding[] = gone.map((code) => ({
    severity: "error",
    kind: "breaking",
    rule: "error-code-removed",
    subject: `error_code \`${code}\``,
    change: fresh.length
      ? `removed (renamed? new codes: ${fresh.map((c) => `\`${c}\``).join(", ")})`
      : "removed from the contract",
    operations: [],
    groups: ["every group"],
    reason: "error_code values are stable identifiers (seed, Versioning 6)",
  }));

  return finish({
    base: { version: String(baseDoc.info?.version ?? "?"), operations: operationCount(baseDoc) },
    current: { version: String(currentDoc.info?.version ?? "?"), operations: operationCount(currentDoc) },
    findings: [...findings, ...foldMcp(aggregate(pairRenames(dropRedundantRequired(raws))), gone)],
    annotations,
  });
}

/**
 * A field removed or added takes its `required` entry with it: the entry is
 * folded into the field's finding (a new field that is required at once is a
 * `required-field-added`).
 */
function dropRedundantRequired(raws: Raw[]): Raw[] {
  const fields = new Map(raws.filter((r) => r.field).map((r) => [`${r.operation}|${r.subject}`, r]));
  return raws.filter((r) => {
    if (r.rule !== "field-made-required" && r.rule !== "field-made-optional") return true;
    const name = r.change.match(/^`([^`]+)`/)?.[1];
    const field = name ? fields.get(`${r.operation}|${r.subject} › ${name}`) : undefined;
    if (!field) return true;
    if (field.rule === "field-added" && r.rule === "field-made-required") {
      field.rule = "required-field-added";
      field.change = `required field \`${name}\` added`;
      if (r.kind === "breaking") field.kind = "breaking";
    }
    return false;
  });
}

/**
 * One field removed and one added under the same parent of the same operation
 * is reported as a rename (the usual edit), so the author reads one line.
 */
function pairRenames(raws: Raw[]): Raw[] {
  const byParent = new Map<string, Raw[]>();
  for (const r of raws) if (r.field) byParent.set(r.field.parent, [...(byParent.get(r.field.parent) ?? []), r]);
  const drop = new Set<Raw>();
  const out: Raw[] = [];
  for (const group of byParent.values()) {
    const removed = group.filter((r) => r.field!.action === "remove");
    const added = group.filter((r) => r.field!.action === "add");
    if (removed.length !== 1 || added.length !== 1) continue;
    const [a, b] = [removed[0], added[0]];
    drop.add(a).add(b);
    const parent = a.subject.split(" › ").slice(0, -1).join(" › ");
    out.push({
      ...a,
      kind: "breaking",
      rule: "field-renamed",
      subject: `${parent} › ${a.field!.name}`,
      change: `field \`${a.field!.name}\` renamed to \`${b.field!.name}\` (removed and added)`,
    });
  }
  return [...raws.filter((r) => !drop.has(r)), ...out];
}

/** One finding per changed element and change, with every operation that reaches it. */
function aggregate(raws: Raw[]): Finding[] {
  const byKey = new Map<string, Raw[]>();
  for (const r of raws) {
    const key = `${r.rule}|${r.subject}|${r.change}`;
    byKey.set(key, [...(byKey.get(key) ?? []), r]);
  }
  return [...byKey.values()].map((rs) => {
    // each operation is judged by its own group and direction; the worst verdict wins
    const judged = rs.map((r) => ({ r, ...judge(r.kind, r.group) }));
    const worst = judged.reduce((w, j) =>
      ORDER[j.severity] < ORDER[w.severity] ||
      (j.severity === w.severity && KIND_ORDER[j.r.kind] < KIND_ORDER[w.r.kind])
        ? j
        : w,
    );
    const deciding = judged.filter((j) => j.severity === worst.severity && j.r.kind === worst.r.kind);
    const { reason } = judge(worst.r.kind, [...new Map(deciding.map((j) => [j.r.group.name, j.r.group])).values()]);
    return {
      severity: worst.severity,
      kind: worst.r.kind,
      rule: rs[0].rule,
      subject: rs[0].subject,
      change: rs[0].change,
      operations: [...new Set(rs.map((r) => r.operation))].sort(),
      groups: sortGroups(rs.map((r) => r.group.name)),
      reason: [...new Set(rs.map((r) => r.reason).filter(Boolean)), reason].filter(Boolean).join("; "),
    };
  });
}

/**
 * MCP tool models embed the REST models (a tool result holds Mention): when a
 * /v1 finding already reports the component, the MCP copy only adds its tools
 * to that finding; a removed error code is reported once, as itself.
 */
function foldMcp(findings: Finding[], goneCodes: string[]): Finding[] {
  const component = (f: Finding) => f.subject.split(" › ")[0];
  const rest = findings.filter((f) => !(f.groups.length === 1 && f.groups[0] === MCP_GROUP.name));
  const out = [...rest];
  for (const f of findings.filter((x) => !rest.includes(x))) {
    if (/ErrorCode$/.test(component(f)) && goneCodes.some((c) => f.change.includes(`\`${c}\``))) continue;
    const twin = rest.find((r) => component(r) === component(f) && r.change === f.change);
    if (twin) {
      twin.operations = [...new Set([...twin.operations, ...f.operations])].sort();
      twin.groups = sortGroups([...twin.groups, MCP_GROUP.name]);
      continue;
    }
    out.push(f);
  }
  return out;
}

/**
 * The seed's policy. Versioning 1: /v1 is bumped to /v2 before any breaking
 * change, so a breaking change reaching a stable group is an error.
 * Versioning 2: in a group that may change it is a warning naming the group.
 */
function judge(kind: Kind, ...groupsIn: Array<Group | Group[]>): { severity: Severity; reason: string } {
  const groups = groupsIn.flat();
  const stable = groups.filter((g) => g.stability === "stable");
  const mayChange = groups.filter((g) => g.stability === "may-change");
  if (kind === "breaking") {
    if (stable.length)
      return {
        severity: "error",
        reason: `breaking in stable group ${names(stable)}: needs /v2 (seed, Versioning 1-2)`,
      };
    if (mayChange.length)
      return {
        severity: "warning",
        reason: `breaking in ${names(mayChange)}, which the seed says may change (Versioning 2)`,
      };
    return { severity: "warning", reason: "reaches MCP tool models only; the seed's versioning rules cover /v1" };
  }
  if (kind === "unclassified")
    return {
      severity: "warning",
      reason: groups.every((g) => g === MCP_GROUP)
        ? "MCP tool model changed; the seed's versioning rules cover /v1, review the tool clients"
        : "the diff library could not classify it; review by hand",
    };
  return { severity: "info", reason: "" };
}

const KIND_ORDER: Record<Kind, number> = { breaking: 0, unclassified: 1, additive: 2, compatible: 3 };

/** Group names, /v1 groups first (alphabetically), the MCP tools last. */
function sortGroups(names: string[]): string[] {
  return [...new Set(names)].sort(
    (a, b) => Number(a === MCP_GROUP.name) - Number(b === MCP_GROUP.name) || a.localeCompare(b),
  );
}

function names(groups: Group[]): string {
  return groups.map((g) => g.name).join(", ");
}

const ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

function finish(r: Omit<DiffReport, "counts">): DiffReport {
  const findings = [...r.findings].sort(
    (a, b) =>
      ORDER[a.severity] - ORDER[b.severity] ||
      a.kind.localeCompare(b.kind) ||
      a.subject.localeCompare(b.subject) ||
      a.change.localeCompare(b.change),
  );
  const counts = { error: 0, warning: 0, info: 0, breaking: 0, additive: 0, compatible: 0, unclassified: 0 };
  for (const f of findings) {
    counts[f.severity]++;
    counts[f.kind]++;
  }
  return { ...r, findings, counts };
}

/** Exit status of the gate: 1 when any finding is an error. */
export function gateStatus(report: DiffReport): 0 | 1 {
  return report.counts.error > 0 ? 1 : 0;
}

export { GROUPS };
