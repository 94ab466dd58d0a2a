// What each difference between two normalised documents means for this
// service. The structural diff and the client-side breaking / non-breaking
// call come from api-smart-diff (it resolves $refs and knows that a request
// and a response break in opposite directions); this file names the element
// that changed and the operation that reaches it, puts the change in words,
// and applies what no library knows: the seed's rules on error codes, on
// removed enum values and on values clients were told to tolerate.
import { apiCompare, type Diff } from "api-smart-diff";
import { PRICE_CATEGORY_KEYS, TOLERANCE, type Group } from "./contract-policy.ts";
import { METHODS, asNode, at, locate, type Located, type Node } from "./contract-document.ts";
import { allCodes, codesIn, errorCodesUnder } from "./contract-error-codes.ts";
import { groupOfPath, operationName } from "./contract-normalise.ts";
import type { Change, Kind } from "./contract-diff-types.ts";

/** Servers, security and security schemes reach every group at once. */
const EVERY_GROUP: Group = { name: "every group", stability: "stable", prefixes: [] };

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

/** The two documents a diff compares, and the error codes clients of the base know. */
interface Sides {
  before: Node;
  after: Node;
  known: Set<string>;
}

export interface Classified {
  changes: Change[];
  /** Differences in text only (descriptions, summaries, tags, info), counted and not listed. */
  annotations: number;
}

/** Every difference between two normalised documents, as changes seen by the operations they reach. */
export function classify(before: Node, after: Node): Classified {
  const sides: Sides = { before, after, known: allCodes(codesIn(before)) };
  const changes: Change[] = [];
  let annotations = 0;
  for (const d of apiCompare(before, after).diffs) {
    const p = d.path.map(String);
    if (d.type === "annotation" || isText(p) || ["tags", "info", "externalDocs"].includes(p[0])) annotations++;
    else if (p[0] === "paths") changes.push(...pathChanges(d, p, sides));
    // a component reached by an operation (or a tool) is reported there; an unreachable one reaches no client
    else if (p[0] === "components" && (p[1] === "schemas" || p[1] === "parameters")) continue;
    else changes.push(wholeApiChange(d, p, sides));
  }
  return { changes, annotations };
}

/**
 * Decision D-DIFF-TEXT. The library leaves some text changes unclassified (in
 * header schemas): text is text wherever it is (a property *named*
 * description is not text).
 */
function isText(p: string[]): boolean {
  const last = p[p.length - 1];
  const holder = p[p.length - 2] ?? "";
  return (
    ["description", "summary", "title", "externalDocs"].includes(last) &&
    !["properties", "required", "enum"].includes(holder)
  );
}

/** The kind api-smart-diff gives a difference, before the seed's rules apply. */
function libraryKind(d: Diff): Kind {
  if (d.type === "breaking") return "breaking";
  if (d.type === "unclassified") return "unclassified";
  return d.action === "add" ? "additive" : "compatible";
}

function sideOf(d: Diff, sides: Sides): Node {
  return d.action === "add" ? sides.after : sides.before;
}

/** A difference under `paths`: a path item, an operation, or an element inside one. */
function pathChanges(d: Diff, p: string[], sides: Sides): Change[] {
  const [, path, method] = p;
  const added = d.action === "add";
  const whole = (operation: string, kind: Kind): Change => ({
    kind,
    rule: `operation-${added ? "added" : "removed"}`,
    subject: operation,
    change: `operation ${added ? "added" : "removed"}`,
    operation,
    group: groupOfPath(path),
  });
  if (p.length === 2) {
    // a whole path item appeared or disappeared: one finding per operation
    const methods = Object.keys(asNode(at(sideOf(d, sides), "paths", path))).filter((x) => METHODS.includes(x));
    return methods.map((m) => whole(operationName(m, path), added ? "additive" : "breaking"));
  }
  if (!METHODS.includes(method)) return []; // path-level parameters/servers: reached through each operation below
  if (p.length === 3)
    return [
      whole(operationName(method, path), added ? "additive" : d.action === "remove" ? "breaking" : libraryKind(d)),
    ];
  return [elementChange(d, p, sides)];
}

/** A difference inside one operation: a parameter, the request body, a response, a header… */
function elementChange(d: Diff, p: string[], sides: Sides): Change {
  const [, path, method, part, status] = p;
  const side = sideOf(d, sides);
  const operation = operationName(method, path);
  const located = locate(side, at(side, "paths", path, method), p.slice(3));
  const inResponse = part === "responses";
  const where = inResponse ? `response ${status}` : part === "requestBody" ? "request body" : part;
  // a response header is one element across every operation and status that sends it
  const subject =
    inResponse && p[5] === "headers" && p[6]
      ? `response header ${p[6]}`
      : located.component
        ? [located.component, ...located.tail].join(" › ")
        : [operation, where, ...located.tail].join(" › ");
  const statusChanged = inResponse && p.length === 5;
  const { rule, change } = statusChanged ? describeStatus(d, status) : describe(d, located);
  const { kind, reason } = statusChanged
    ? statusVerdict(d, status, located, sides)
    : elementVerdict(d, rule, inResponse, located, sides);
  const field =
    rule === "field-added" || rule === "field-removed"
      ? {
          parent: [operation, subject.split(" › ").slice(0, -1).join(" › ")].join("|"),
          name: located.tail[located.tail.length - 1],
          action: d.action,
        }
      : undefined;
  return { kind, rule, subject, change, operation, group: groupOfPath(path), reason, field };
}

interface Verdict {
  kind: Kind;
  reason?: string;
}

/**
 * Decision D-DIFF-NEW-ERROR: a new error status on an existing operation is
 * breaking when it brings an error code the release's clients never saw; one
 * that documents codes of the release's catalogue on one more operation is
 * compatible. New operations bring their codes additively.
 */
function statusVerdict(d: Diff, status: string, located: Located, sides: Sides): Verdict {
  if (d.action !== "add" || !/^[45]/.test(status)) return { kind: libraryKind(d) };
  const codes = [...errorCodesUnder(sides.after, located.node)];
  const unknown = codes.filter((c) => !sides.known.has(c));
  if (!unknown.length && codes.length)
    return { kind: "compatible", reason: `documents codes the release already has: ${quoted(codes)}` };
  return {
    kind: "breaking",
    reason: `a new error status on an existing operation${unknown.length ? ` with codes the release does not know: ${quoted(unknown)}` : ""}`,
  };
}

/** The seed's rules on enum values and price categories, over the library's call. */
function elementVerdict(d: Diff, rule: string, inResponse: boolean, located: Located, sides: Sides): Verdict {
  let kind = libraryKind(d);
  let reason: string | undefined;
  const lastProp = located.props[located.props.length - 1];
  const tolerance = () => located.descriptions.find((t) => TOLERANCE.test(t))?.match(TOLERANCE)?.[0];
  if (rule === "enum-value-added" && inResponse && lastProp === "error_code" && kind === "breaking") {
    // D-DIFF-NEW-ERROR, for a code added to an existing error response
    const code = String(d.after);
    if (sides.known.has(code)) {
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
    // Decision D-VERSION-TOLERANCE, for enum values
    const said = tolerance();
    if (said) {
      kind = "additive";
      reason = `clients were told to tolerate unknown values: "${said}"`;
    }
  }
  if (rule === "field-added" && inResponse && PRICE_CATEGORY_KEYS.includes(located.props[located.props.length - 2])) {
    // Seed, Versioning 3: a new price category is additive only because clients tolerate unknown ones.
    const said = tolerance();
    kind = said ? "additive" : "breaking";
    reason = said
      ? `new price category; the contract tells clients: "${said}"`
      : "new price category, and the contract does not tell clients to tolerate unknown categories";
  }
  return { kind, reason };
}

/** Servers, security, security schemes: a difference outside `paths` reaches every group at once. */
function wholeApiChange(d: Diff, p: string[], sides: Sides): Change {
  const side = sideOf(d, sides);
  const { rule, change } = describe(d, locate(side, side, p));
  return { kind: libraryKind(d), rule, subject: p.join("/"), change, operation: "(whole API)", group: EVERY_GROUP };
}

function quoted(codes: string[]): string {
  return codes.map((c) => `\`${c}\``).join(", ");
}

function show(v: unknown): string {
  if (v === undefined) return "—";
  const s = typeof v === "string" ? v : JSON.stringify(v);
  return s.length > 60 ? s.slice(0, 57) + "…" : s;
}

interface Described {
  rule: string;
  change: string;
}

function describeStatus(d: Diff, status: string): Described {
  const verb = d.action === "add" ? "added" : "removed";
  return { rule: `status-${verb}`, change: `status ${status} ${verb}` };
}

/** Rule id and words for one raw diff, from its last segments. */
function describe(d: Diff, located: Located): Described {
  const p = d.path.map(String);
  const last = p[p.length - 1];
  const prev = p[p.length - 2];
  const before: unknown = d.before;
  const after: unknown = d.after;
  const verb =
    d.action === "add" ? "added" : d.action === "remove" ? "removed" : d.action === "rename" ? "renamed" : "changed";
  if (prev === "enum" && d.action === "replace")
    return { rule: "enum-value-renamed", change: `value \`${show(before)}\` renamed to \`${show(after)}\`` };
  if (prev === "enum")
    return { rule: `enum-value-${verb}`, change: `value \`${show(d.action === "add" ? after : before)}\` ${verb}` };
  if (last === "enum") return { rule: "enum-changed", change: `values ${show(before)} → ${show(after)}` };
  if (prev === "required" || last === "required") {
    const names = prev === "required" ? [d.action === "add" ? after : before] : [];
    const verbRequired =
      d.action === "add" ? "made required" : d.action === "remove" ? "made optional" : "required list changed";
    return {
      rule:
        d.action === "add" ? "field-made-required" : d.action === "remove" ? "field-made-optional" : "required-changed",
      change: `${names.map((n) => `\`${String(n)}\` `).join("")}${verbRequired}`,
    };
  }
  if (prev === "properties") return { rule: `field-${verb}`, change: `field \`${last}\` ${verb}` };
  if (BOUNDS.has(last)) return { rule: "bound-changed", change: `${last} ${show(before)} → ${show(after)}` };
  if (last === "type" || last === "format" || last === "const")
    return { rule: "type-changed", change: `${last} ${show(before)} → ${show(after)}` };
  if (last === "default") return { rule: "default-changed", change: `default ${show(before)} → ${show(after)}` };
  if (last === "deprecated") return { rule: "deprecated", change: `deprecated ${show(before)} → ${show(after)}` };
  if (prev === "parameters")
    return { rule: `parameter-${verb}`, change: `parameter ${located.tail[located.tail.length - 1] ?? last} ${verb}` };
  if (last === "requestBody") return { rule: `request-body-${verb}`, change: `request body ${verb}` };
  return {
    rule: "shape-changed",
    change: `${p.slice(-3).join("/")} ${verb}${d.action === "replace" ? `: ${show(before)} → ${show(after)}` : ""}`,
  };
}
