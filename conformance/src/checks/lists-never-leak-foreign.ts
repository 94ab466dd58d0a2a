import type { ActiveCheck } from "../types.ts";
import { createDataset, fixtureDataset, isObj, seen, walk } from "./_util.ts";

/** Account-wide lists and mention searches never show another account's data. */
const check: ActiveCheck = {
  kind: "active",
  id: "lists-never-leak-foreign",
  rule: "Lists (datasets) and mention searches never include another account's resources",
  section: "What the service does › Cross-cutting facts (every resource is scoped to the account)",
  severity: "critical",
  profiles: ["standard", "full"],
  mock: false,
  keys: ["foreign"],
  requires: ["GET /v1/datasets", "POST /v1/datasets"],
  async run(ctx) {
    const mine = await fixtureDataset(ctx);
    const theirs = await createDataset(ctx, "foreign", "foreign");
    const a = await walk(ctx, "/v1/datasets", { limit: 100, maxPages: 20 });
    const leakA = a.items.find((d) => d?.id === theirs.id);
    ctx.expect(!leakA, { title: "lists-never-leak-foreign: another account's dataset appears in this account's list", received: leakA, expected: "absent" }, a.pages.at(-1));
    const b = await walk(ctx, "/v1/datasets", { limit: 100, maxPages: 20, key: "foreign" });
    const leakB = b.items.find((d) => d?.id === mine.id);
    ctx.expect(!leakB, { title: "lists-never-leak-foreign: this account's dataset appears in another account's list", received: leakB, expected: "absent" }, b.pages.at(-1));
    if (ctx.contract.op("POST /v1/mentions")) {
      const ex = await ctx.req({ method: "POST", path: "/v1/mentions", body: { dataset_ids: [theirs.id], limit: 5 } });
      ctx.expect(ex.status === 404, { title: "lists-never-leak-foreign: a mention search scoped to a foreign dataset did not answer 404", received: seen(ex), expected: { status: 404, error_code: "dataset_not_found" } }, ex);
      const all = await ctx.req({ method: "POST", path: "/v1/mentions", body: { limit: 100 } });
      const rows: any[] = isObj(all.json) && Array.isArray(all.json.data) ? all.json.data : [];
      const leak = rows.find((m) => Array.isArray(m?.datasets) && m.datasets.some((d: any) => d?.id === theirs.id));
      ctx.expect(!leak, { title: "lists-never-leak-foreign: a mention search returned a post of a foreign dataset", received: leak, expected: "absent" }, all);
    }
  },
};
export default check;
