import { defineCheck } from "../define-check.ts";
import { seed } from "../grounding/assertions.ts";
import { words } from "../grounding/facts.ts";
import { sleep } from "../http.ts";
import { callTool, requireMcp } from "../mcp/client.ts";
import { twins } from "../mcp/twins.ts";
import { MISSING_CASES } from "./mcp-tool-error-shape.ts";
import { balance, usageRows } from "./support/billing.ts";

/**
 * Read tools never charge: the balance and the usage feed are unchanged after
 * calling every one of them. A balance that moves on its own (the account's
 * scheduled work) makes the rule unobservable: not exercised.
 */
export default defineCheck({
  id: "mcp-read-tools-free",
  phase: "mcp",
  rule: "Calling every read tool (successful and failing calls) leaves usage.balance and the usage history unchanged",
  section: "Endpoints › MCP tool surface (read tools never create or charge); Limits › Charges (3: reads are free)",
  severity: "critical",
  asserts: { free: seed("mcp.tools", words("Read tools never create or charge")) },
  profiles: ["readonly", "standard", "full"],
  requires: ["GET /v1/me", "GET /v1/me/usage_history"],
  async run(ctx) {
    await requireMcp(ctx);
    const { twins: pairs } = await twins(ctx);
    const { balance: first } = await balance(ctx);
    await sleep(1000);
    const { balance: before } = await balance(ctx);
    if (!before.equals(first)) return ctx.notExercised("the balance moves on its own (the account has work in flight)");
    const { rows: rowsBefore } = await usageRows(ctx);
    let calls = 0;
    for (const t of pairs) {
      await callTool(ctx, t.tool, t.args);
      calls++;
    }
    for (const c of MISSING_CASES) {
      await callTool(ctx, c.tool, c.args);
      calls++;
    }
    const { balance: after, ex: meAfter } = await balance(ctx);
    const { rows: rowsAfter, ex: usage } = await usageRows(ctx);
    ctx.expect(
      after.equals(before),
      {
        judges: "free",
        title: `${calls} read tool calls changed the balance`,
        received: after.toFixed(),
        expected: before.toFixed(),
      },
      meAfter,
    );
    ctx.expect(
      JSON.stringify(rowsAfter.map((r) => r?.id)) === JSON.stringify(rowsBefore.map((r) => r?.id)),
      {
        judges: "free",
        title: `${calls} read tool calls wrote usage history`,
        received: rowsAfter.slice(0, 3),
        expected: rowsBefore.slice(0, 3),
      },
      usage,
    );
  },
});
