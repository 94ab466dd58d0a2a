import { defineCheck } from "../define-check.ts";
import { seed } from "../grounding/assertions.ts";
import { status, words } from "../grounding/facts.ts";
import type { KeyRole } from "../http.ts";
import { callTool, requireMcp, type McpAuth } from "../mcp/client.ts";
import { dataOf } from "../typed.ts";
import type { AccountMe, McpGetMeResult } from "../../../generated/client/types.gen.ts";
import { payloadOf } from "./support/mcp.ts";

const BAD_KEY = { invalid: "sl_test_slk_invalid_key_000000" };
const BAD_BEARER = "slk-invalid-access-token";

type Judge = "same-account" | "key-first" | "fallback" | "neither";

interface Case {
  label: string;
  auth: McpAuth;
  /** the assertion the answer judges */
  judges: Judge;
  /** whose account svc__get_me must answer; undefined: refused with 401 */
  account?: "main" | "other";
}

/**
 * x-api-key is checked first; when it is missing or invalid the bearer token
 * is tried; both resolve to the same account; neither resolving is a 401 (the
 * seed). The precedence is observable only when the key and the token name
 * different accounts: another account's key sent with the main seat's token
 * must act as the key's account.
 */
export default defineCheck({
  id: "mcp-auth-order",
  phase: "mcp",
  rule: "MCP accepts x-api-key, or a bearer token when the key is missing or invalid; the key wins over any bearer token (another account's key with the main token acts as the key's account; a valid key with a bad token works); both methods resolve to the account REST GET /v1/me shows; neither resolving is HTTP 401",
  section: "Authentication › MCP (2, 3: key first, then bearer; 401 when neither resolves)",
  severity: "critical",
  asserts: {
    "same-account": seed(["mcp-auth.two-methods", "mcp.get-me"], words("Both resolve to the same account")),
    "key-first": seed("mcp-auth.order", words("the server checks x-api-key first")),
    fallback: seed("mcp-auth.order", words("if missing or invalid, falls back to the bearer token")),
    neither: seed(["mcp-auth.401-challenge", "mcp-auth.order"], words("If neither resolves: 401"), status(401)),
  },
  profiles: ["readonly", "standard", "full"],
  requires: ["GET /v1/me"],
  async run(ctx) {
    await requireMcp(ctx);
    const accountOf = async (key: KeyRole) => {
      const me = await ctx.req({ method: "GET", path: "/v1/me", key });
      const id = dataOf<AccountMe>(me)?.account_id;
      return typeof id === "string" ? id : undefined;
    };
    const account = await accountOf("main");
    if (!account) ctx.skip("GET /v1/me answered without account_id");
    // another account's key: the precedence of the key shows only when the two credentials differ
    const otherRole = (["foreign", "poor"] as KeyRole[]).find((r) => ctx.hasKey(r));
    const other = otherRole ? await accountOf(otherRole) : undefined;
    const token = ctx.settings.bearerToken;
    const cases: Case[] = [
      { label: "a valid x-api-key", auth: { key: "main" }, judges: "same-account", account: "main" },
      { label: "an invalid x-api-key alone", auth: { key: BAD_KEY }, judges: "neither" },
      {
        label: "an invalid x-api-key and an invalid bearer token",
        auth: { key: BAD_KEY, bearer: BAD_BEARER },
        judges: "neither",
      },
      {
        label: "a valid x-api-key with a bad bearer token",
        auth: { key: "main", bearer: BAD_BEARER },
        judges: "key-first",
        account: "main",
      },
    ];
    if (token) {
      cases.push(
        { label: "a valid bearer token", auth: { bearer: token }, judges: "same-account", account: "main" },
        {
          label: "an invalid x-api-key with a valid bearer token",
          auth: { key: BAD_KEY, bearer: token },
          judges: "fallback",
          account: "main",
        },
      );
      if (otherRole && other && other !== account)
        cases.push({
          label: `the ${otherRole} account's x-api-key with the main seat's bearer token`,
          auth: { key: otherRole, bearer: token },
          judges: "key-first",
          account: "other",
        });
      else
        ctx.notExercised(
          "no key of another account (--foreign-key): the key's precedence over a valid token is not exercised",
        );
    } else ctx.notExercised("no --bearer-token given: the bearer fallback and the key's precedence are not exercised");
    for (const c of cases) {
      const call = await callTool(ctx, "svc__get_me", {}, c.auth);
      if (!c.account) {
        ctx.expect(
          call.ex.status === 401,
          {
            judges: c.judges,
            title: `${c.label} answered ${call.ex.status}`,
            received: { status: call.ex.status },
            expected: { status: 401 },
          },
          call.ex,
        );
        continue;
      }
      const want = c.account === "main" ? account : other;
      const got = payloadOf<McpGetMeResult>(call)?.account_id;
      ctx.expect(
        call.ex.status === 200 && !call.problem && !call.isError && got === want,
        {
          judges: c.judges,
          title: `svc__get_me with ${c.label} ${call.problem ?? (call.isError ? "returned a tool error" : `answered account ${got}`)}`,
          received: { status: call.ex.status, problem: call.problem, account_id: got, toolError: call.toolError },
          expected: { status: 200, account_id: want },
        },
        call.ex,
      );
    }
  },
});
