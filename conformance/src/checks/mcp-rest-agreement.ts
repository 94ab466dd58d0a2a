import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { field, words } from "../grounding/facts.ts";
import type { Exchange } from "../http.ts";
import { callTool, requireMcp, type ToolCall } from "../mcp/client.ts";
import type { CheckContext } from "../types.ts";
import { twins, type Twin } from "../mcp/twins.ts";
import { bodyOf, isObject } from "../typed.ts";
import { canonical } from "./support/mcp.ts";
import type { Page } from "./support/pagination.ts";
import { walk } from "./support/util.ts";

/** An item of a list by its id (an item without one, or not an object, as itself). */
const idOrItem = (x: unknown): unknown => (isObject(x) ? (x.id ?? x) : x);
const ids = (xs: unknown) => (Array.isArray(xs) ? (xs as unknown[]).map((x) => canonical(idOrItem(x))) : []);

/** The search tools take REST's own arguments ("as REST mentions", "mirrors the REST profiles endpoint"). */
const SEARCH_TOOLS = new Set(["svc__list_mentions", "svc__list_audience_profiles"]);

type GetJudge = "resource" | "pdr" | "me";
const getJudge = (tool: string): GetJudge =>
  tool === "svc__get_pattern_detection_run" ? "pdr" : tool === "svc__get_me" ? "me" : "resource";

/**
 * The part of the two answers a tool's row states. svc__get_pattern_detection_run
 * answers `{run_id, status, pattern_id}`: the three as REST has them, pattern_id
 * absent or null until REST has one; svc__get_me all but `usage`, which moves
 * with every charge (D-MCP-GET-ME); the other get tools the whole resource.
 */
function comparable(tool: string, v: unknown, rest?: unknown): unknown {
  if (tool === "svc__get_pattern_detection_run" && isObject(v)) {
    const restPattern = isObject(rest) ? rest.pattern_id : undefined;
    return { run_id: v.run_id, status: v.status, pattern_id: v.pattern_id ?? (restPattern == null ? undefined : null) };
  }
  if (tool === "svc__get_me" && isObject(v)) {
    const { usage: _usage, ...others } = v;
    return others;
  }
  return v;
}

/**
 * REST↔MCP agreement: the same key sees the same data through a read tool as
 * through its REST twin. A get tool answers the REST resource (the seed: the
 * row names Dataset, dataset run, AudienceDataset, audience run,
 * TrackingAgent; runs carry the REST status envelope), a pattern detection
 * run's `{run_id, status, pattern_id}` as REST has them (the seed; the rest
 * of its shape is D-MCP-PDR-RESULT's). The search tools take REST's
 * arguments and answer REST's page (the seed); a paging tool lists only
 * what REST lists (the seed), and its page size and order are
 * D-MCP-PAGING's; svc__get_me being the REST Me field for field is
 * D-MCP-GET-ME's.
 */
export default defineCheck({
  id: "mcp-rest-agreement",
  phase: "mcp",
  rule: "Every read tool returns the same data as its REST twin for the same key: get tools the REST resource (svc__get_pattern_detection_run its run_id, status and pattern_id; svc__get_me field for field, D-MCP-GET-ME), the search tools REST's page with cursor null exactly when has_next is false, the paging tools only items REST lists (their page size and order: D-MCP-PAGING)",
  section: "Endpoints › MCP tool surface (mirrors REST); What the service does (9)",
  severity: "critical",
  asserts: {
    resource: seed(
      [
        "mcp.get-dataset",
        "mcp.get-dataset-run",
        "mcp.get-audience-dataset",
        "mcp.get-audience-dataset-run",
        "mcp.get-tracking-agent",
        "mcp.run-envelopes",
      ],
      words("Dataset or {error}"),
      words("dataset run"),
      words("AudienceDataset"),
      words("audience run"),
      words("TrackingAgent"),
      words("are the REST envelope"),
    ),
    pdr: seed("mcp.get-pattern-detection-run", field("run_id"), field("status"), field("pattern_id")),
    search: seed(
      ["mcp.list-mentions", "mcp.list-audience-profiles", "mcp.list-cursor"],
      words("limit as REST mentions"),
      words("mirrors the REST profiles endpoint"),
      words("a null cursor means the end"),
    ),
    "list-items": seed(
      ["service.mcp.ask-plus-read-only", "mcp.list-datasets", "mcp.list-audience-datasets", "mcp.list-tracking-agents"],
      words("The same capabilities are reachable through an MCP tool server"),
      words("{content: Dataset[], cursor}"),
    ),
    answered: seed(
      "service.mcp.ask-plus-read-only",
      words("The same capabilities are reachable through an MCP tool server"),
    ),
    paging: decided("D-MCP-PAGING"),
    me: decided("D-MCP-GET-ME"),
    "pdr-shape": decided("D-MCP-PDR-RESULT"),
  },
  profiles: ["readonly", "standard", "full"],
  requires: ["GET /v1/me", "GET /v1/datasets"],
  async run(ctx) {
    await requireMcp(ctx);
    const { twins: pairs, missing } = await twins(ctx);
    for (const m of missing) ctx.notExercised(m);
    for (const t of pairs) {
      const rest = await ctx.req({ method: t.rest.method, path: t.rest.path, body: t.rest.body });
      const call = await callTool(ctx, t.tool, t.args);
      if (rest.status !== 200) {
        ctx.notExercised(`${t.tool}: REST twin answered ${rest.status}`);
        continue;
      }
      if (
        !ctx.expect(
          !call.problem && !call.isError,
          {
            judges: "answered",
            title: `${t.tool} ${call.problem ?? `returned a tool error ${JSON.stringify(call.toolError)}`}`,
            received: call.result ?? { status: call.ex.status },
            expected: `the data of ${t.rest.method} ${t.rest.path} (${rest.status})`,
          },
          call.ex,
        )
      )
        continue;
      // `data` exactly as sent: the tool's content must be the same whatever it is
      const restData = bodyOf<{ data: unknown }>(rest)?.data;
      if (t.list) await judgeList(ctx, t, call, rest, restData);
      else {
        if (t.tool === "svc__get_pattern_detection_run" && isObject(call.payload)) {
          // exactly the three fields, pattern_id only once REST has one
          const extra = Object.keys(call.payload).filter((k) => !["run_id", "status", "pattern_id"].includes(k));
          const early = "pattern_id" in call.payload && !(isObject(restData) && restData.pattern_id != null);
          ctx.expect(
            extra.length === 0 && !early,
            {
              judges: "pdr-shape",
              title: `svc__get_pattern_detection_run answers ${extra.length ? `the extra field(s) ${extra.join(", ")}` : "pattern_id before the run completed"}`,
              received: call.payload,
              expected: "{run_id, status, pattern_id (once completed)}",
            },
            call.ex,
          );
        }
        ctx.expect(
          canonical(comparable(t.tool, call.payload, restData)) === canonical(comparable(t.tool, restData)),
          {
            judges: getJudge(t.tool),
            title: `${t.tool} differs from ${t.rest.method} ${t.rest.path}`,
            received: comparable(t.tool, call.payload, restData),
            expected: comparable(t.tool, restData),
          },
          call.ex,
        );
      }
    }
  },
});

/** A list tool's page against its REST twin's. */
async function judgeList(
  ctx: CheckContext<"search" | "list-items" | "paging">,
  t: Twin,
  call: ToolCall,
  rest: Exchange,
  restData: unknown,
): Promise<void> {
  const payload: unknown = call.payload;
  const page = isObject(payload) ? payload : undefined;
  const content = page?.content;
  const restHasNext = bodyOf<Page>(rest)?.has_next === true;
  const search = SEARCH_TOOLS.has(t.tool);
  if (!Array.isArray(content) || canonical(content) !== canonical(restData)) {
    let judges: "search" | "list-items" | "paging" = "search";
    let how = "";
    if (!search) {
      // a paging tool may page and order differently (D-MCP-PAGING); an item REST never lists is the seed's
      const all = await walk(ctx, t.rest.path.split("?")[0]!, { limit: 100, maxPages: 3 });
      const known = new Set(ids(all.items));
      const unknown = Array.isArray(content) ? ids(content).filter((i) => !known.has(i)) : [];
      judges = !Array.isArray(content) || unknown.length ? "list-items" : "paging";
      how = !Array.isArray(content)
        ? ": no content array"
        : unknown.length
          ? `: ${unknown.length} item(s) REST does not list`
          : Array.isArray(restData) && content.length !== restData.length
            ? `: ${content.length} items, REST ${restData.length}`
            : ": the same items in another order or page";
    }
    ctx.fail(
      {
        judges,
        title: `${t.tool} content differs from ${t.rest.method} ${t.rest.path}${how}`,
        received: Array.isArray(content) ? (content as unknown[]).map(idOrItem) : payload,
        expected: Array.isArray(restData) ? (restData as unknown[]).map(idOrItem) : restData,
      },
      call.ex,
    );
  }
  ctx.expect(
    page?.cursor === null || typeof page?.cursor === "string",
    {
      judges: search ? "search" : "list-items",
      title: `${t.tool} answered no cursor (string or null)`,
      received: page?.cursor,
      expected: "string | null",
    },
    call.ex,
  );
  ctx.expect(
    (page?.cursor === null) === !restHasNext,
    {
      judges: search ? "search" : "paging",
      title: `${t.tool} cursor ${page?.cursor === null ? "is null" : "is set"} while REST has_next is ${restHasNext}`,
      received: page?.cursor,
      expected: restHasNext ? "a cursor" : null,
    },
    call.ex,
  );
}
