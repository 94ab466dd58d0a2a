import { decision, defineCheck } from "../define-check.ts";
import { callTool, requireMcp, type McpAuth } from "../mcp/client.ts";
import { dataOf } from "../typed.ts";
import type { AccountMe, McpGetMeResult } from "../../../generated/client/types.gen.ts";
import { payloadOf } from "./support/mcp.ts";

const BAD_KEY = { invalid: "sl_test_slk_invalid_key_000000" };
const BAD_BEARER = "slk-invalid-access-token";

/**
 * x-api-key is checked first; when it is missing or invalid the bearer token is
 * tried; both resolve to the same account (svc__get_me answers the key's account).
 */
export default defineCheck({
  id: "mcp-auth-order",
  phase: "mcp",
  rule: "MCP accepts x-api-key, or a bearer token when the key is missing or invalid; a valid key wins over a bad bearer; both methods resolve to the same account as REST; a bad key alone is 401",
  section: "Authentication › MCP (2, 3: key first, then bearer)",
  severity: "critical",
  rules: {
    seed: "the server checks `x-api-key` first; if missing or invalid, falls back to the bearer token",
    decisions: [
      decision("D-MCP-ASK-AUTH", { title: /D-MCP-ASK-AUTH/ }),
      decision("D-MCP-BEARER-SEAT", { title: /seat/ }),
    ],
  },
  decisions: ["D-MCP-ASK-AUTH", "D-MCP-BEARER-SEAT"],
  profiles: ["readonly", "standard", "full"],
  requires: ["GET /v1/me"],
  async run(ctx) {
    await requireMcp(ctx);
    const me = await ctx.req({ method: "GET", path: "/v1/me" });
    const account = dataOf<AccountMe>(me)?.account_id;
    if (typeof account !== "string") ctx.skip(`GET /v1/me answered ${me.status} without account_id`);
    const token = ctx.settings.bearerToken;
    const cases: Array<{ label: string; auth: McpAuth; accepted: boolean }> = [
      { label: "a valid x-api-key", auth: { key: "main" }, accepted: true },
      { label: "an invalid x-api-key alone", auth: { key: BAD_KEY }, accepted: false },
      { label: "a valid x-api-key with a bad bearer token", auth: { key: "main", bearer: BAD_BEARER }, accepted: true },
    ];
    if (token) {
      cases.push(
        { label: "a valid bearer token", auth: { bearer: token }, accepted: true },
        {
          label: "an invalid x-api-key with a valid bearer token",
          auth: { key: BAD_KEY, bearer: token },
          accepted: true,
        },
        { label: "a valid x-api-key and a valid bearer token", auth: { key: "main", bearer: token }, accepted: true },
      );
    } else ctx.notExercised("no --bearer-token given: the bearer fallback is not exercised");
    for (const c of cases) {
      const call = await callTool(ctx, "svc__get_me", {}, c.auth);
      if (!c.accepted) {
        ctx.expect(
          call.ex.status === 401,
          {
            title: `${c.label} answered ${call.ex.status}`,
            received: { status: call.ex.status },
            expected: { status: 401 },
          },
          call.ex,
        );
        continue;
      }
      const got = payloadOf<McpGetMeResult>(call)?.account_id;
      ctx.expect(
        call.ex.status === 200 && !call.problem && !call.isError && got === account,
        {
          title: `svc__get_me with ${c.label} ${call.problem ?? (call.isError ? "returned a tool error" : `answered account ${got}`)}`,
          received: { status: call.ex.status, problem: call.problem, account_id: got, toolError: call.toolError },
          expected: { status: 200, account_id: account },
        },
        call.ex,
      );
    }
  },
});
