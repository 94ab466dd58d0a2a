import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { field, required, words } from "../grounding/facts.ts";
import { listTools, mcpUrl, requireMcp, rpc, SEED_PREFIX, toolPrefix } from "../mcp/client.ts";
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

/** The arguments the seed's tool table names "required", and the ones it marks optional (`?`). */
const SEED_REQUIRED: Record<string, { required: string[]; optional: string[] }> = {
  svc__ask: { required: ["prompt"], optional: ["chat_id", "dataset_ids", "post_refs"] },
  svc__get_message: { required: ["chat_id", "message_id"], optional: [] },
  svc__render: { required: ["message_id", "block_id"], optional: [] },
};

/** The parameters the seed's tool table lists for the other tools (that they are required is D-MCP-TOOL-ARGS's). */
const SEED_PARAMS: Record<string, string[]> = {
  svc__get_dataset: ["dataset_id"],
  svc__get_dataset_run: ["dataset_id", "run_id"],
  svc__get_audience_dataset: ["audience_dataset_id"],
  svc__get_audience_dataset_run: ["audience_dataset_id", "run_id"],
  svc__get_pattern_detection_run: ["run_id"],
  svc__get_tracking_agent: ["agent_id"],
  svc__list_mentions: ["dataset_ids", "filters", "sort", "order", "cursor", "limit"],
};

/** The contract's own argument decisions, by tool. */
function decisionOf(tool: string): "paging" | "search-args" | "no-args" | "tool-args" {
  if (/^svc__list_(datasets|audience_datasets|tracking_agents)$/.test(tool)) return "paging";
  if (/^svc__list_(mentions|audience_profiles)$/.test(tool)) return "search-args";
  if (tool === "svc__get_me") return "no-args";
  return "tool-args";
}

/** The names a JSON schema requires and the properties it declares (none where it says nothing). */
function argumentsOf(schema: unknown): { required: string[]; properties: string[] } {
  const req = jsonAt(schema, "required");
  const properties = jsonAt(schema, "properties");
  return {
    required: Array.isArray(req) ? (req as unknown[]).map(String) : [],
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

const sorted = (xs: string[]) => JSON.stringify([...xs].sort());

/**
 * Exactly the fifteen documented tools (named with the deployment's own
 * prefix, the seed's `svc__` being a stand-in), no write tools; svc__ask,
 * svc__get_message and svc__render require exactly what the seed calls
 * required, and every tool declares the parameters the seed's table lists
 * (the seed). Which other arguments are required, the paging and search
 * arguments, and the readOnlyHint/destructiveHint annotations are the
 * contract's decisions.
 */
export default defineCheck({
  id: "mcp-tool-catalogue",
  phase: "mcp",
  rule: "tools/list returns exactly the fifteen documented tools (under the deployment's prefix); svc__ask requires exactly prompt, svc__get_message chat_id and message_id, svc__render message_id and block_id; every tool declares the parameters the seed lists for it; the other tools require the contract's arguments (D-MCP-TOOL-ARGS, D-MCP-PAGING, D-MCP-SEARCH-ARGS, D-MCP-NO-ARGS); every tool but svc__ask is annotated readOnlyHint true and none destructiveHint (D-MCP-ANNOTATIONS)",
  section: "Endpoints › MCP tool surface",
  severity: "critical",
  asserts: {
    fifteen: seed(
      ["mcp.tools", "service.mcp.ask-plus-read-only"],
      words("Fifteen tools"),
      words("there are no create, update or delete tools"),
    ),
    "seed-args": seed(
      ["mcp.ask", "mcp.get-message", "mcp.render"],
      required("prompt"),
      words("chat_id?"),
      words("both required"),
      required("block_id"),
    ),
    params: seed(
      [
        "mcp.get-dataset",
        "mcp.get-dataset-run",
        "mcp.get-audience-dataset",
        "mcp.get-audience-dataset-run",
        "mcp.get-pattern-detection-run",
        "mcp.get-tracking-agent",
        "mcp.list-mentions",
      ],
      field("dataset_id"),
      field("run_id"),
      field("audience_dataset_id"),
      field("agent_id"),
      words("dataset_ids, filters, sort, order, cursor, limit"),
    ),
    "tool-args": decided("D-MCP-TOOL-ARGS"),
    paging: decided("D-MCP-PAGING"),
    "search-args": decided("D-MCP-SEARCH-ARGS"),
    "no-args": decided("D-MCP-NO-ARGS"),
    annotations: decided("D-MCP-ANNOTATIONS"),
    // the seed's `svc__` is a stand-in for the service's prefix; the contract names the tools with it
    names: decided("D-MCP-CATALOGUE"),
    "same-path": seed("mcp-auth.same-path-under-rest", words("The same path exists under the REST host")),
  },
  profiles: ["readonly", "standard", "full"],
  async run(ctx) {
    // the MCP path under the REST host answers as an endpoint (401 without credentials), not as an unknown route
    // (behind a validating proxy the proxy answers every path outside the contract itself)
    const underRest = `${new URL(ctx.settings.baseUrl).origin}${new URL(mcpUrl(ctx)).pathname}`;
    const probe = ctx.settings.validatingProxy ? undefined : await rpc(ctx, "tools/list", {}, {}, { url: underRest });
    if (probe)
      ctx.expect(
        probe.ex.status !== 404 && probe.ex.status !== 405,
        {
          judges: "same-path",
          title: `${underRest} answered ${probe.ex.status}: no MCP endpoint under the REST host`,
          received: { status: probe.ex.status, body: probe.ex.text.slice(0, 200) },
          expected: "the MCP endpoint (401 without credentials)",
        },
        probe.ex,
      );
    await requireMcp(ctx);
    const { answer, tools: listed, problem } = await listTools(ctx);
    if (!listed) {
      ctx.fail(
        {
          judges: "fifteen",
          title: `tools/list failed (${problem})`,
          received: { status: answer.ex.status, body: answer.ex.text.slice(0, 300) },
          expected: "a ListToolsResult",
        },
        answer.ex,
      );
      return;
    }
    const prefix = await toolPrefix(ctx);
    ctx.expect(
      prefix === SEED_PREFIX,
      {
        judges: "names",
        title: `the tools are named ${prefix}…, not ${SEED_PREFIX}…`,
        received: (listed as unknown[]).map((t) => servedTool(t).name),
        expected: `${SEED_PREFIX}… (the contract's names)`,
      },
      answer.ex,
    );
    // served names read back as documented ones (`acme__get_me` → `svc__get_me`)
    const documentedName = (n: string) => (n.startsWith(prefix) ? SEED_PREFIX + n.slice(prefix.length) : n);
    const documented = toolNames(ctx.contract.doc);
    const tools = (listed as unknown[]).map(servedTool).map((t) => ({ ...t, name: documentedName(t.name) }));
    const served = tools.map((t) => t.name);
    const extra = served.filter((n) => !documented.includes(n));
    const missing = documented.filter((n) => !served.includes(n));
    ctx.expect(
      extra.length === 0 && missing.length === 0 && served.length === documented.length,
      {
        judges: "fifteen",
        title: `tools/list served ${served.length} tools${extra.length ? `; undocumented ${extra.join(", ")}` : ""}${missing.length ? `; missing ${missing.join(", ")}` : ""}`,
        received: served,
        expected: documented,
      },
      answer.ex,
    );
    for (const t of tools.filter((x) => documented.includes(x.name))) {
      const got = t.input.required;
      const seedArgs = SEED_REQUIRED[t.name];
      if (seedArgs) {
        const optionalRequired = seedArgs.optional.filter((a) => got.includes(a));
        ctx.expect(
          sorted(got) === sorted(seedArgs.required),
          {
            judges: "seed-args",
            title: `${t.name} requires ${JSON.stringify(got)}${optionalRequired.length ? ` (the seed marks ${optionalRequired.join(", ")} optional)` : ""}`,
            received: got,
            expected: seedArgs.required,
          },
          answer.ex,
        );
        const absent = [...seedArgs.required, ...seedArgs.optional].filter((a) => !t.input.properties.includes(a));
        ctx.expect(
          absent.length === 0,
          {
            judges: "seed-args",
            title: `${t.name} does not declare ${absent.join(", ")}`,
            received: t.input.properties,
            expected: [...seedArgs.required, ...seedArgs.optional],
          },
          answer.ex,
        );
      } else {
        const contract = argumentsOf(argsSchemaOf(ctx.contract.doc, t.name));
        ctx.expect(
          sorted(got) === sorted(contract.required),
          {
            judges: decisionOf(t.name),
            title: `${t.name} requires ${JSON.stringify(got)}`,
            received: got,
            expected: contract.required,
          },
          answer.ex,
        );
        const listedBySeed = SEED_PARAMS[t.name] ?? [];
        const absentSeed = listedBySeed.filter((p) => !t.input.properties.includes(p));
        ctx.expect(
          absentSeed.length === 0,
          {
            judges: "params",
            title: `${t.name} does not declare ${absentSeed.join(", ")}, which the seed lists`,
            received: t.input.properties,
            expected: listedBySeed,
          },
          answer.ex,
        );
        const absentContract = contract.properties.filter(
          (p) => !listedBySeed.includes(p) && !t.input.properties.includes(p),
        );
        ctx.expect(
          absentContract.length === 0,
          {
            judges: decisionOf(t.name),
            title: `${t.name} does not declare ${absentContract.join(", ")}`,
            received: t.input.properties,
            expected: contract.properties,
          },
          answer.ex,
        );
      }
      if (t.annotations?.destructiveHint === true)
        ctx.fail(
          {
            judges: "annotations",
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
          judges: "annotations",
          title: `read tool ${t.name} is not annotated readOnlyHint: true`,
          received: t.annotations ?? "(no annotations)",
          expected: { readOnlyHint: true },
        },
        answer.ex,
      );
    }
  },
});
