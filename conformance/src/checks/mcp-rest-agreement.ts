import { decision, defineCheck } from "../define-check.ts";
import { callTool, requireMcp } from "../mcp/client.ts";
import { twins } from "../mcp/twins.ts";
import { bodyOf, isObject } from "../typed.ts";
import { canonical, payloadOf } from "./support/mcp.ts";
import type { Page } from "./support/pagination.ts";

/** The part of a REST /v1/me body the tool documents (user, account, plan, members, teams): usage moves with every charge. */
function comparable(tool: string, v: unknown): unknown {
  // D-MCP-PDR-RESULT: the tool picks run_id, status and pattern_id from the REST run
  if (tool === "svc__get_pattern_detection_run" && isObject(v))
    return { run_id: v.run_id, status: v.status, pattern_id: v.pattern_id };
  if (tool === "svc__get_me" && isObject(v)) {
    const { usage: _usage, ...rest } = v;
    return rest;
  }
  return v;
}

/** An item of a list by its id (an item without one, or not an object, as itself). */
const idOrItem = (x: unknown): unknown => (isObject(x) ? (x.id ?? x) : x);

/** REST↔MCP agreement: the same key sees the same data through a read tool as through its REST twin. */
export default defineCheck({
  id: "mcp-rest-agreement",
  phase: "mcp",
  rule: "Every read tool returns the same data as its REST twin for the same key: the same items in the same order for list tools (cursor null exactly when has_next is false), the same object for get tools",
  section: "Endpoints › MCP tool surface (mirrors REST); What the service does (9)",
  severity: "critical",
  rules: {
    seed: "The same capabilities are reachable through an MCP tool server",
    decisions: [
      decision("D-MCP-SEARCH-ARGS", { title: /svc__list_(mentions|audience_profiles).*default/ }),
      // "optional paging": the kit pages these tools with the contract's `limit` (newest first, no `order`), so
      // their page and cursor agree with REST only under D-MCP-PAGING; the two search tools take REST's own arguments (seed)
      decision("D-MCP-PAGING", {
        title:
          /^svc__list_(datasets|audience_datasets|tracking_agents) (content differs .*: (\d+ items, REST \d+|the same items in another order)|cursor is)/,
      }),
      // "user with account, plan, members, teams": that it is the REST Me field for field is the contract's
      decision("D-MCP-GET-ME", { title: /^svc__get_me differs from/ }),
    ],
  },
  decisions: ["D-MCP-PAGING", "D-MCP-SEARCH-ARGS", "D-MCP-PDR-RESULT", "D-MCP-GET-ME"],
  profiles: ["readonly", "standard", "full"],
  requires: ["GET /v1/me", "GET /v1/datasets"],
  async run(ctx) {
    await requireMcp(ctx);
    const { twins: pairs, missing } = await twins(ctx);
    for (const m of missing) ctx.notExercised(m);
    for (const t of pairs) {
      const rest = await ctx.req({ method: t.rest.method, path: t.rest.path, body: t.rest.body });
      const call = await callTool(ctx, t.tool, t.args);
      if (
        !ctx.expect(
          !call.problem && !call.isError,
          {
            title: `${t.tool} ${call.problem ?? `returned a tool error ${JSON.stringify(call.toolError)}`}`,
            received: call.result ?? { status: call.ex.status },
            expected: `the data of ${t.rest.method} ${t.rest.path} (${rest.status})`,
          },
          call.ex,
        )
      )
        continue;
      if (rest.status !== 200) {
        ctx.notExercised(`${t.tool}: REST twin answered ${rest.status}`);
        continue;
      }
      // `data` exactly as sent: the tool's content must be the same whatever it is
      const restData = bodyOf<{ data: unknown }>(rest)?.data;
      if (t.list) {
        const page = payloadOf<{ content: unknown; cursor: string | null }>(call);
        const content = page?.content;
        const restHasNext = bodyOf<Page>(rest)?.has_next === true;
        // how the pages differ: another page size or another order of the same items depend on the paging arguments
        const ids = (xs: unknown) => (Array.isArray(xs) ? (xs as unknown[]).map((x) => canonical(idOrItem(x))) : []);
        const how = !Array.isArray(content)
          ? ""
          : Array.isArray(restData) && content.length !== restData.length
            ? `: ${content.length} items, REST ${restData.length}`
            : canonical(ids(content)) !== canonical(ids(restData)) &&
                canonical([...ids(content)].sort()) === canonical([...ids(restData)].sort())
              ? ": the same items in another order"
              : "";
        ctx.expect(
          Array.isArray(content) && canonical(content) === canonical(restData),
          {
            title: `${t.tool} content differs from ${t.rest.method} ${t.rest.path}${how}`,
            received: Array.isArray(content) ? (content as unknown[]).map(idOrItem) : call.payload,
            expected: Array.isArray(restData) ? (restData as unknown[]).map(idOrItem) : restData,
          },
          call.ex,
        );
        ctx.expect(
          (page?.cursor === null) === !restHasNext,
          {
            title: `${t.tool} cursor ${page?.cursor === null ? "is null" : "is set"} while REST has_next is ${restHasNext}`,
            received: page?.cursor,
            expected: restHasNext ? "a cursor" : null,
          },
          call.ex,
        );
      } else {
        ctx.expect(
          canonical(comparable(t.tool, call.payload)) === canonical(comparable(t.tool, restData)),
          {
            title: `${t.tool} differs from ${t.rest.method} ${t.rest.path}`,
            received: comparable(t.tool, call.payload),
            expected: comparable(t.tool, restData),
          },
          call.ex,
        );
      }
    }
  },
});
