// The fifteen tools as the contract generates them: names and schemas from
// `zMcpToolCatalogue` (generated zod), descriptions from the catalogue's
// property docs in generated/openapi.json. Nothing here is written by hand,
// so a contract change reaches the server by regenerating.
//
// The JSON Schemas a client sees in tools/list are converted from the zod
// once per prefix and kept: a stateless server builds a fresh protocol
// server for every POST, and converting fifteen schemas each time would cost
// more than the call itself.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as z from "zod";
import { zMcpToolCatalogue } from "../../../generated/client/zod.gen.ts";

export type ToolName = keyof typeof zMcpToolCatalogue.shape;

export interface CatalogueTool {
  /** The contract's name, e.g. `svc__get_dataset`. */
  name: ToolName;
  description: string;
  args: z.ZodType;
  result: z.ZodType;
  /** Every tool but `svc__ask` only reads (seed: read tools never create or charge). */
  readOnly: boolean;
}

/** The tool a client calls with the configured prefix, as published in tools/list. */
export interface PublishedTool {
  name: string;
  description: string;
  inputSchema: { type: "object"; [k: string]: unknown };
  outputSchema: { type: "object"; [k: string]: unknown };
  annotations: { readOnlyHint: boolean; destructiveHint?: boolean; openWorldHint?: boolean };
}

/** The prefix the contract writes; tool names are stored without it. */
const CONTRACT_PREFIX = "svc__";

/** Tools that create or charge work; every other tool is read-only. */
const WRITING_TOOLS: ReadonlySet<ToolName> = new Set<ToolName>(["svc__ask"]);

function loadDescriptions(): Record<string, string> {
  const doc = JSON.parse(
    readFileSync(fileURLToPath(new URL("../../../generated/openapi.json", import.meta.url)), "utf8"),
  ) as {
    components: { schemas: Record<string, { properties?: Record<string, { description?: string }> }> };
  };
  const props = doc.components.schemas["Mcp.ToolCatalogue"]?.properties ?? {};
  return Object.fromEntries(
    Object.entries(props).map(([name, p]) => [name, (p.description ?? "").replace(/\s*\n\s*/g, " ").trim()]),
  );
}

function buildCatalogue(): CatalogueTool[] {
  const descriptions = loadDescriptions();
  return (Object.keys(zMcpToolCatalogue.shape) as ToolName[]).map((name) => {
    const entry = zMcpToolCatalogue.shape[name] as unknown as z.ZodObject<{ args: z.ZodType; result: z.ZodType }>;
    const description = descriptions[name];
    if (!description) throw new Error(`generated/openapi.json has no description for MCP tool ${name}`);
    return {
      name,
      description,
      args: entry.shape.args,
      result: entry.shape.result,
      readOnly: !WRITING_TOOLS.has(name),
    };
  });
}

export const CATALOGUE: readonly CatalogueTool[] = buildCatalogue();

const byName = new Map<string, CatalogueTool>(CATALOGUE.map((t) => [t.name, t]));

/** The catalogue tool a published name refers to under `prefix`, if any. */
export function toolByPublishedName(prefix: string, published: string): CatalogueTool | undefined {
  if (!published.startsWith(prefix)) return undefined;
  return byName.get(CONTRACT_PREFIX + published.slice(prefix.length));
}

export function publishedName(prefix: string, tool: CatalogueTool): string {
  return prefix + tool.name.slice(CONTRACT_PREFIX.length);
}

/**
 * JSON Schema of a zod schema for tools/list. Draft-07 is what the MCP SDK
 * client (Ajv) and the Inspector validate with; nothing in these schemas needs
 * a later draft. `io: "input"` publishes argument defaults as optional fields.
 */
function jsonSchema(schema: z.ZodType, io: "input" | "output"): { type: "object"; [k: string]: unknown } {
  const out = z.toJSONSchema(schema, { target: "draft-7", io, unrepresentable: "any" }) as Record<string, unknown>;
  if (out.type !== "object") throw new Error("an MCP tool schema must describe an object");
  return out as { type: "object"; [k: string]: unknown };
}

const published = new Map<string, { tools: PublishedTool[] }>();

/** The tools/list result under `prefix`, computed once. */
export function toolsList(prefix: string): { tools: PublishedTool[] } {
  let list = published.get(prefix);
  if (!list) {
    list = {
      tools: CATALOGUE.map((t) => ({
        name: publishedName(prefix, t),
        description: t.description,
        inputSchema: jsonSchema(t.args, "input"),
        outputSchema: jsonSchema(t.result, "output"),
        annotations: t.readOnly
          ? { readOnlyHint: true }
          : { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
      })),
    };
    published.set(prefix, list);
  }
  return list;
}
