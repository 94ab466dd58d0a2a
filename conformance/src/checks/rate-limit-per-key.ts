import { defineCheck } from "../define-check.ts";
import { seed } from "../grounding/assertions.ts";
import { words } from "../grounding/facts.ts";
import { seen } from "./support/util.ts";
import { burst } from "./support/burst.ts";

/** The bucket is per key: another key is not throttled while one is. */
export default defineCheck({
  id: "rate-limit-per-key",
  phase: "rate-limit",
  rule: "While one key is throttled (429 before and after), a request with another key is not refused with 429",
  section: "Limits › Request rate (1: per API key)",
  severity: "major",
  asserts: { "per-key": seed("rate-limit.per-key", words("per API key")) },
  profiles: ["readonly", "standard", "full"],
  async run(ctx) {
    if (!["foreign", "second", "poor"].some((r) => ctx.hasKey(r as never)))
      ctx.skip("needs a second key (--foreign-key, --second-seat-key or --poor-key)");
    const b = await burst(ctx);
    if (!b.first429) ctx.skip("the burst produced no 429 (rate-limit-burst-429 reports it)");
    if (!b.other) return ctx.skip("no call with another key was sent");
    if (
      !ctx.expect(
        b.other.status !== 429,
        {
          judges: "per-key",
          title: `the ${b.otherRole} key was throttled together with the main key`,
          received: seen(b.other),
          expected: "not 429: the other key has its own bucket",
        },
        b.other,
      )
    )
      return;
    if (b.still?.status !== 429)
      ctx.notExercised(
        `the main key's window ended before the ${b.otherRole} key's call (the main key's next call answered ${b.still?.status})`,
      );
  },
});
