// Reading an OpenAPI document as the JSON it is: a node is any object (an
// array too, its indices are keys), a value is `unknown` until a check says
// what it is, and a `$ref` is followed by hand. The diff modules read
// documents of any release through these helpers rather than through a typed
// model, because an old release need not match today's types.

/** A JSON object (or array) of a document, read key by key. */
export type Node = Record<string, unknown>;

export const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

export function isNode(v: unknown): v is Node {
  return typeof v === "object" && v !== null;
}

/** The value at a path of keys, or undefined as soon as a step is not a node. */
export function at(v: unknown, ...keys: Array<string | number>): unknown {
  let node = v;
  for (const k of keys) node = isNode(node) ? node[k] : undefined;
  return node;
}

/** The node itself, or an empty one when the value is not a node (a missing `paths`, say). */
export function asNode(v: unknown): Node {
  return isNode(v) ? v : {};
}

/** The values of a node that are nodes themselves (path items, operations, responses…). */
export function children(v: unknown): Node[] {
  return isNode(v) ? Object.values(v).filter(isNode) : [];
}

/** The string values a schema allows: its `enum` strings and its string `const`. */
export function allowedStrings(schema: unknown): string[] {
  const values = at(schema, "enum");
  const out = Array.isArray(values) ? values.filter((v): v is string => typeof v === "string") : [];
  const only = at(schema, "const");
  return typeof only === "string" ? [...out, only] : out;
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** The component name a `$ref` points at (`Common.ErrorCode`). */
export function refName(ref: string): string {
  return unescapePointer(ref.replace(/^#\/components\/[^/]+\//, ""));
}

/** The node a local `$ref` (`#/components/schemas/…`) points at. */
export function lookup(doc: unknown, ref: string): unknown {
  return ref
    .replace(/^#\//, "")
    .split("/")
    .reduce<unknown>((n, p) => at(n, unescapePointer(p)), doc);
}

/** The `$ref` of a node, when it has one. */
export function refOf(v: unknown): string | undefined {
  const ref = at(v, "$ref");
  return typeof ref === "string" && ref ? ref : undefined;
}

/** The node itself, or the one its `$ref` points at. */
export function deref(doc: unknown, v: unknown): unknown {
  const ref = refOf(v);
  return ref ? lookup(doc, ref) : v;
}

export function operationCount(doc: unknown): number {
  return children(at(doc, "paths")).reduce(
    (n, item) => n + Object.keys(item).filter((m) => METHODS.includes(m)).length,
    0,
  );
}

/** A parameter as findings name it: where it goes and its name (`query limit`). */
function parameterName(parameter: unknown): string {
  return `${String(at(parameter, "in"))} ${String(at(parameter, "name"))}`;
}

export interface Located {
  /** Deepest named component on the way, or undefined when the element is inline. */
  component?: string;
  /** Readable path inside the component (or the operation): property names, [] for items. */
  tail: string[];
  /** The node at the end of the path (undefined when the walk lost its way). */
  node: unknown;
  /** The node that holds the last segment (the enum's schema, the properties' object…). */
  parent: unknown;
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
export function locate(doc: Node, start: unknown, segments: ReadonlyArray<string | number>): Located {
  const out: Located = { tail: [], node: start, parent: undefined, descriptions: [], props: [] };
  let node = start;
  const seen = (n: unknown) => {
    const description = at(n, "description");
    if (typeof description === "string") out.descriptions.push(description);
  };
  seen(node);
  for (let i = 0; i < segments.length; i++) {
    const seg = String(segments[i]);
    let guard = 0;
    while (isNode(node) && typeof node.$ref === "string" && !(seg in node && seg !== "allOf") && guard++ < 20) {
      const ref = node.$ref;
      out.component = refName(ref);
      out.tail = [];
      node = lookup(doc, ref);
      seen(node);
      if (seg === "allOf" && isNode(node) && !("allOf" in node) && String(segments[i + 1]) === "0") {
        i += 1;
        break;
      }
    }
    if (seg === "allOf" && String(segments[i]) !== seg) continue; // consumed as a $ref with siblings
    out.parent = node;
    node = at(node, seg);
    seen(node);
    const prev = String(segments[i - 1] ?? "");
    if (prev === "properties") {
      out.tail.push(seg);
      out.props.push(seg);
    } else if (seg === "items") out.tail.push("[]");
    else if (prev === "parameters" && at(node, "name")) out.tail.push(parameterName(node));
    else if (prev === "parameters" && refOf(node)) out.tail.push(parameterName(lookup(doc, refOf(node)!)));
  }
  out.node = node;
  return out;
}
