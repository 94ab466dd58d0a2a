// Brings an OpenAPI document of this service into the form the diff library
// compares well: examples dropped (text, and most of the bytes), each MCP tool
// model turned into an operation so it is judged in the right direction, and
// response header schemas inlined (the library does not follow their $refs).
// Also how those synthetic tool operations are named and grouped in findings.
import { MCP_GROUP, groupOf, type Group } from "./contract-policy.ts";
import { asNode, at, children, isNode, lookup, type Node } from "./contract-document.ts";

/** Where the synthetic tool operations live: `POST /mcp/tools/<name>`. */
const TOOL_PREFIX = "/mcp/tools/";

/** Keys that annotate a schema without changing what a client may send or receive. */
const ANNOTATIONS = new Set(["examples", "example", "x-provenance"]);

/**
 * Decision D-DIFF-TEXT: examples are annotation by definition, and so are the
 * provenance marks (`x-provenance`: which rule a constraint states); both are
 * dropped before diffing.
 */
function withoutExamples(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutExamples);
  if (!isNode(node)) return node;
  const out: Node = {};
  for (const [k, v] of Object.entries(node)) if (!ANNOTATIONS.has(k)) out[k] = withoutExamples(v);
  return out;
}

/**
 * The MCP tool models (`Mcp.<Name>Tool`: a name, an args schema and a result
 * schema) become one synthetic operation each, `POST /mcp/tools/<name>` with
 * the args as request body and the result as 200 response, so the diff
 * library judges them in the right direction (a tool's args break like a
 * request, its result like a response).
 */
function withTools(doc: Node): Node {
  const paths: Node = { ...asNode(doc.paths) };
  for (const [name, schema] of Object.entries(asNode(at(doc, "components", "schemas")))) {
    if (!/^Mcp\..+Tool$/.test(name)) continue;
    const tool = String(at(schema, "properties", "name", "enum", 0) ?? name);
    const json = (s: unknown) => ({ content: { "application/json": { schema: s } } });
    paths[`${TOOL_PREFIX}${tool}`] = {
      post: {
        requestBody: json(at(schema, "properties", "args") ?? {}),
        responses: { "200": { description: "tool result", ...json(at(schema, "properties", "result") ?? {}) } },
      },
    };
  }
  return { ...doc, paths };
}

/**
 * api-smart-diff does not follow a `$ref` in a response header's schema, so
 * moving an inline header schema to a named one would read as a type change:
 * header schemas are inlined first (they are small scalars). Changes the
 * document in place.
 */
function inlineHeaderSchemas(doc: Node): Node {
  for (const item of children(doc.paths))
    for (const op of children(item))
      for (const res of children(op.responses))
        for (const header of children(res.headers)) {
          for (let guard = 0; guard < 10; guard++) {
            const schema = header.schema;
            if (!isNode(schema) || typeof schema.$ref !== "string") break;
            const { $ref: _ref, ...rest } = schema;
            header.schema = { ...asNode(lookup(doc, schema.$ref)), ...rest };
          }
        }
  return doc;
}

/** A document ready for the diff library; the input is left as it was. */
/**
 * The document without the prose of its fields (each property's description):
 * the changes a client sees are judged on this, because api-smart-diff
 * matches the branches of a union by their whole content, and a reworded
 * field description in one branch would hide a breaking change in another.
 * A schema's own description stays (the policy reads it: "New categories
 * ship as additive keys"); text changes are counted on the full document
 * (D-DIFF-TEXT).
 */
export function withoutText(node: unknown, inProperties = false): unknown {
  if (Array.isArray(node)) return node.map((n) => withoutText(n));
  if (!isNode(node)) return node;
  const out: Node = {};
  for (const [k, v] of Object.entries(node)) {
    if (inProperties && k === "description") continue;
    out[k] = k === "properties" && isNode(v) ? propertiesWithoutText(v) : withoutText(v);
  }
  return out;
}

function propertiesWithoutText(props: Node): Node {
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, withoutText(v, true)]));
}

export function normalise(doc: object): Node {
  return inlineHeaderSchemas(withTools(asNode(withoutExamples(doc))));
}

/** How findings name an operation: `POST /v1/mentions`, or `MCP list_mentions` for a synthetic tool operation. */
export function operationName(method: string, path: string): string {
  return path.startsWith(TOOL_PREFIX) ? `MCP ${path.slice(TOOL_PREFIX.length)}` : `${method.toUpperCase()} ${path}`;
}

/** The seed's group a path belongs to; the synthetic tool operations form their own. */
export function groupOfPath(path: string): Group {
  return path.startsWith(TOOL_PREFIX) ? MCP_GROUP : groupOf(path);
}
