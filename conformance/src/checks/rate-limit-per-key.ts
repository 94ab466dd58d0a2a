import { defineCheck } from "../define-check.ts";
import { seen } from "./support/util.ts";
import { burst } from "./support/burst.ts";

/** The bucket is per key: another key is unaffected while one is throttled. */
export default defineCheck({
  id: "rate-limit-per-key",
  phase: "rate-limit",
  rule: "While one key is throttled (429), a request with another key succeeds",
  section: "Limits › Request rate (1: per API key, keyed on its digest)",
  severity: "major",
  rules: { seed: "5 requests per second per API key" },
  profiles: ["readonly", "standard", "full"],
  async run(ctx) {
    if (!["foreign", "second", "poor"].some((r) => ctx.hasKey(r as never)))
      ctx.skip("needs a second key (--foreign-key, --second-seat-key or --poor-key)");
    const b = await burst(ctx);
    if (!b.first429) ctx.skip("the burst produced no 429 (rate-limit-burst-429 reports it)");
    ctx.expect(
      b.other?.status === 200,
      {
        title: `the ${b.otherRole} key was throttled together with the main key`,
        received: b.other ? seen(b.other) : "(not sent)",
        expected: { status: 200 },
      },
      b.other,
    );
  },
});
