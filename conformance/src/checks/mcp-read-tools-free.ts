import { defineCheck } from "../define-check.ts";
import { callTool, requireMcp } from "../mcp/client.ts";
import { twins } from "../mcp/twins.ts";
import { MISSING_CASES } from "./mcp-tool-error-shape.ts";
import { balance, usageRows } from "./support/billing.ts";

/** Read tools never create or charge: the balance and the usage feed are unchanged after calling every one of them. */
export default defineCheck({
  id: "mcp-read-tools-free",
  phase: "mcp",
  rule: "Calling every read tool (successful and failing calls) leaves usage.balance and the usage history unchanged",
  section: "Endpoints › MCP tool surface (read tools never create or charge); Limits › Charges (3: reads are free)",
  severity: "critical",
  rules: { seed: "Read tools never create or charge" },
  profiles: ["readonly", "standard", "full"],
  requires: ["GET /v1/me", "GET /v1/me/usage_history"],
  async run(ctx) {
    await requireMcp(ctx);
    const { twins: pairs } = await twins(ctx);
    const { balance: before } = await balance(ctx);
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
        title: `${calls} read tool calls changed the balance`,
        received: after.toFixed(),
        expected: before.toFixed(),
      },
      meAfter,
    );
    ctx.expect(
      JSON.stringify(rowsAfter.map((r) => r?.id)) === JSON.stringify(rowsBefore.map((r) => r?.id)),
      {
        title: `${calls} read tool calls wrote usage history`,
        received: rowsAfter.slice(0, 3),
        expected: rowsBefore.slice(0, 3),
      },
      usage,
    );
  },
});
