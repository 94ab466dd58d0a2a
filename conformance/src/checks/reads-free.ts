import { defineCheck } from "../define-check.ts";
import { seed } from "../grounding/assertions.ts";
import { words } from "../grounding/facts.ts";
import { sleep } from "../http.ts";
import { balance, usageRows } from "./support/billing.ts";

/** The free reads this check sends (seed › Charges rule 3), each once. */
const READS = [
  { method: "GET", path: "/v1/prices" },
  { method: "GET", path: "/v1/me/usage_history?limit=5" },
  { method: "POST", path: "/v1/mentions", body: { limit: 5 } },
  { method: "POST", path: "/v1/audience_profiles", body: { limit: 5 } },
  { method: "GET", path: "/v1/datasets?limit=5" },
] as const;

/**
 * Reads are free: the balance read before a batch of reads of each free kind
 * is the balance read after it. The check runs before the kit starts any
 * chargeable work; a balance that moves on its own (the account's scheduled
 * work) makes the rule unobservable, and a move with a new usage row behind
 * it is that work's, not the reads': both are reported not exercised.
 */
export default defineCheck({
  id: "reads-free",
  phase: "requests",
  rule: "A batch of free reads (prices, me, usage history, mentions, profiles, datasets) leaves the balance unchanged",
  section: "Limits › Charges (rule 3: free)",
  severity: "major",
  asserts: {
    free: seed(
      "charges.reads-free",
      words("all reads (mentions, profiles, patterns, chats, me, prices, usage history"),
    ),
  },
  profiles: ["readonly", "standard", "full"],
  requires: ["GET /v1/me"],
  async run(ctx) {
    const before = await balance(ctx);
    await sleep(1000);
    const still = await balance(ctx);
    if (!still.balance.equals(before.balance))
      return ctx.notExercised("the balance moves on its own (the account has work in flight)");
    const newest = async () => (await usageRows(ctx)).rows[0]?.id;
    const rowBefore = await newest();
    for (const r of READS)
      if (ctx.contract.match(r.method, r.path.split("?")[0]!))
        await ctx.req({ method: r.method, path: r.path, ...("body" in r ? { body: r.body } : {}) });
    const after = await balance(ctx);
    if (!after.balance.equals(still.balance) && (await newest()) !== rowBefore)
      return ctx.notExercised("the balance moved with a new usage row during the reads (other work of the account)");
    ctx.expect(
      after.balance.equals(still.balance),
      {
        judges: "free",
        title: `the balance moved from ${still.balance.toFixed()} to ${after.balance.toFixed()} during free reads`,
        received: { before: still.balance.toFixed(), after: after.balance.toFixed() },
        expected: "the same balance",
      },
      after.ex,
    );
  },
});
