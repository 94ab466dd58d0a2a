import { decision, defineCheck } from "../define-check.ts";
import { listTools, requireMcp } from "../mcp/client.ts";
import { isObject } from "../typed.ts";
import { jsonAt, schemaEnum } from "./support/groups.ts";

/** Tool name → the Args component of the contract (svc__get_dataset_run → Mcp.GetDatasetRunArgs). */
export function argsSchemaOf(doc: unknown, tool: string): unknown {
  const pascal = tool
    .replace(/^svc__/, "")
    .split("_")
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join("");
  return jsonAt(doc, "components", "schemas", `Mcp.${pascal}Args`);
}

export function toolNames(doc: unknown): string[] {
  return schemaEnum(doc, "Mcp.ToolName") ?? [];
}

/** The names a JSON schema requires and the properties it declares (none where it says nothing). */
function argumentsOf(schema: unknown): { required: unknown[]; properties: string[] } {
  const required = jsonAt(schema, "required");
  const properties = jsonAt(schema, "properties");
  return {
    required: Array.isArray(required) ? (required as unknown[]) : [],
    properties: Object.keys(isObject(properties) ? properties : {}),
  };
}

/** What the check reads of a served tool (tools/list validated each as an MCP Tool, so its name is a string). */
function servedTool(t: unknown) {
  const annotations = jsonAt(t, "annotations");
  return {
    name: String(jsonAt(t, "name")),
    input: argumentsOf(jsonAt(t, "inputSchema")),
    annotations: isObject(annotations) ? annotations : undefined,
  };
}

/**
 * Exactly the fifteen tools of the contract, each taking the documented
 * arguments (same required set), read tools annotated readOnlyHint, no
 * create/update/delete tools.
 */
export default defineCheck({
  id: "mcp-tool-catalogue",
  phase: "mcp",
  rule: "tools/list returns exactly the fifteen documented tools; each inputSchema requires exactly the documented arguments and declares every documented one; every tool but svc__ask is annotated readOnlyHint true and none destructiveHint",
  section: "Endpoints › MCP tool surface",
  severity: "critical",
  rules: {
    seed: "Fifteen tools. Read tools never create or charge; there are no create, update or delete tools.",
    decisions: [
      // the seed never mentions tool annotations: readOnlyHint/destructiveHint are the contract's
      decision("D-MCP-ANNOTATIONS", { title: /readOnlyHint|destructiveHint/ }),
      decision("D-MCP-NO-ARGS", { title: /svc__get_me/ }),
      decision("D-MCP-PAGING", { title: /limit|cursor|order/ }),
      decision("D-MCP-SEARCH-ARGS", { title: /svc__list_mentions|svc__list_audience_profiles/ }),
    ],
  },
  decisions: [
    "D-MCP-CATALOGUE",
    "D-MCP-COMPONENTS",
    "D-MCP-NO-ARGS",
    "D-MCP-PAGING",
    "D-MCP-SEARCH-ARGS",
    "D-MCP-ANNOTATIONS",
  ],
  profiles: ["readonly", "standard", "full"],
  async run(ctx) {
    await requireMcp(ctx);
    const { answer, tools: listed, problem } = await listTools(ctx);
    if (!listed) {
      ctx.fail(
        {
          title: `tools/list failed (${problem})`,
          received: { status: answer.ex.status, body: answer.ex.text.slice(0, 300) },
          expected: "a ListToolsResult",
        },
        answer.ex,
      );
      return;
    }
    const documented = toolNames(ctx.contract.doc);
    const tools = (listed as unknown[]).map(servedTool);
    const served = tools.map((t) => t.name);
    const extra = served.filter((n) => !documented.includes(n));
    const missing = documented.filter((n) => !served.includes(n));
    ctx.expect(
      extra.length === 0 && missing.length === 0 && served.length === documented.length,
      {
        title: `tools/list served ${served.length} tools${extra.length ? `; undocumented ${extra.join(", ")}` : ""}${missing.length ? `; missing ${missing.join(", ")}` : ""}`,
        received: served,
        expected: documented,
      },
      answer.ex,
    );
    for (const t of tools.filter((x) => documented.includes(x.name))) {
      const args = argumentsOf(argsSchemaOf(ctx.contract.doc, t.name));
      const want = [...args.required].sort();
      const got = [...t.input.required].sort();
      ctx.expect(
        JSON.stringify(want) === JSON.stringify(got),
        { title: `${t.name} requires ${JSON.stringify(got)}`, received: got, expected: want },
        answer.ex,
      );
      const props = t.input.properties;
      const undeclared = args.properties.filter((p) => !props.includes(p));
      ctx.expect(
        undeclared.length === 0,
        {
          title: `${t.name} does not declare ${undeclared.join(", ")}`,
          received: props,
          expected: args.properties,
        },
        answer.ex,
      );
      if (t.annotations?.destructiveHint === true)
        ctx.fail(
          {
            title: `${t.name} is annotated destructiveHint`,
            received: t.annotations,
            expected: "no destructive tools",
          },
          answer.ex,
        );
      if (t.name === "svc__ask") continue;
      ctx.expect(
        t.annotations?.readOnlyHint === true,
        {
          title: `read tool ${t.name} is not annotated readOnlyHint: true`,
          received: t.annotations ?? "(no annotations)",
          expected: { readOnlyHint: true },
        },
        answer.ex,
      );
    }
  },
});
