import type { CheckContext } from "../types.ts";
import { sleep, type Exchange, type KeyRole } from "../http.ts";

export interface BurstOutcome {
  limit: number;
  burst: Exchange[];
  first429?: Exchange;
  other?: Exchange; // another key, sent while the first is throttled
  otherRole?: KeyRole;
  after?: Exchange; // first key again, after waiting Retry-After
}

const PROBE = "/v1/datasets?limit=1";

/** One planned burst per kit run: the only 429s the kit provokes on purpose. */
export function burst(ctx: CheckContext): Promise<BurstOutcome> {
  return ctx.shared("rate-limit-burst", async () => {
    const probe = await ctx.req({ method: "GET", path: PROBE });
    const limit = Number(probe.headers["ratelimit-limit"]) || ctx.client.limiter("main").limit || 5;
    // let the current window drain so the burst lands in fresh windows
    await sleep(1100);
    const n = Math.min(limit * 2 + 3, 250);
    const burst = await Promise.all(Array.from({ length: n }, () => ctx.req({ method: "GET", path: PROBE, burst: true, meta: { planned429: true } })));
    const first429 = burst.find((e) => e.status === 429);
    const out: BurstOutcome = { limit, burst, first429 };
    const otherRole = (["foreign", "second", "poor"] as KeyRole[]).find((r) => ctx.hasKey(r));
    if (otherRole) {
      out.otherRole = otherRole;
      out.other = await ctx.req({ method: "GET", path: PROBE, key: otherRole, burst: true });
    }
    const wait = Number(first429?.headers["retry-after"] ?? 1);
    ctx.client.limiter("main").block(Math.max(1, wait) * 1000 + 50);
    await sleep(Math.max(1, wait) * 1000 + 50);
    out.after = await ctx.req({ method: "GET", path: PROBE, burst: true, meta: { planned429: true } });
    return out;
  });
}
