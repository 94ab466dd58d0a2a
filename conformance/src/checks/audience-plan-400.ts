import type { AccountMe } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { seed } from "../grounding/assertions.ts";
import { status, words } from "../grounding/facts.ts";
import type { KeyRole } from "../http.ts";
import { dataOf } from "../typed.ts";
import { AUD } from "./support/audiences.ts";
import { idOf, seen } from "./support/util.ts";

/** Among the configured keys, one whose plan lacks audience research cannot create an audience dataset: 400. */
export default defineCheck({
  id: "audience-plan-400",
  phase: "groups",
  rule: "With a configured key whose GET /v1/me reports plan.features.audience_research false, POST /v1/audience_datasets answers 400 (skipped when every configured key's plan includes audience research)",
  section: "Endpoints › Audience datasets (POST: 400 when the plan does not include audience research); Errors",
  severity: "major",
  asserts: {
    refused: seed(
      "audience-datasets.create.400-plan",
      status(400),
      words("when the plan does not include audience research"),
    ),
  },
  requires: ["GET /v1/me", "POST /v1/audience_datasets"],
  async run(ctx) {
    const roles = (["foreign", "poor", "second", "main"] as const).filter((k) => k === "main" || ctx.hasKey(k));
    let key: KeyRole | undefined;
    const seenPlans: string[] = [];
    for (const role of roles) {
      const me = await ctx.req({ method: "GET", path: "/v1/me", key: role });
      const plan = dataOf<AccountMe>(me)?.plan;
      const flag: unknown = plan?.features?.audience_research;
      seenPlans.push(`${role}: ${String(plan?.name)} audience_research=${String(flag)}`);
      if (flag === false) {
        key = role;
        break;
      }
    }
    if (!key) ctx.skip(`no configured key's plan lacks audience research (${seenPlans.join("; ")})`);
    ctx.mutates("a refused audience dataset on a plan without audience research");
    const ex = await ctx.req({ method: "POST", path: AUD, key, body: { name: ctx.name("aud-no-plan") } });
    const id = idOf(ex);
    if (ex.status >= 200 && ex.status < 300 && id)
      ctx.track("audience dataset", `${AUD}/${encodeURIComponent(id)}`, key);
    ctx.expect(
      ex.status === 400,
      {
        judges: "refused",
        title: `creating an audience dataset on a plan without audience research (${key} key) answered ${ex.status}`,
        received: seen(ex),
        expected: { status: 400 },
      },
      ex,
    );
  },
});
