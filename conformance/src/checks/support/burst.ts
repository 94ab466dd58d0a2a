import type { CheckContext } from "../../types.ts";
import { sleep, type Exchange, type KeyRole } from "../../http.ts";
import { groupsOf } from "../../groups/index.ts";

export interface BurstOutcome {
  limit: number;
  burst: Exchange[];
  /** successes of each burst sent (a second burst is sent only when the first let more than `limit` through) */
  successes: number[];
  first429?: Exchange;
  other?: Exchange; // another key, sent while the first is throttled
  otherRole?: KeyRole;
  after?: Exchange; // first key again, after waiting Retry-After
}

/** The cheapest authenticated GET of the contract: a served group's list with limit=1 (datasets first). */
export function probePath(ctx: CheckContext): string | undefined {
  const lists = groupsOf(ctx.contract)
    .map((g) => g.ops.list)
    .filter((o) => o && !o.path.includes("{") && o.params.some((p) => p.name === "limit"));
  const op = lists[0] ?? ctx.contract.operations.find((o) => o.method === "GET" && !o.path.includes("{") && o.secured);
  return op ? op.path + (op.params.some((p) => p.name === "limit") ? "?limit=1" : "") : undefined;
}

async function send(ctx: CheckContext, path: string, n: number): Promise<Exchange[]> {
  return Promise.all(
    Array.from({ length: n }, () => ctx.req({ method: "GET", path, burst: true, meta: { planned429: true } })),
  );
}

/** One planned burst per kit run: the only 429s the kit provokes on purpose. */
export function burst(ctx: CheckContext): Promise<BurstOutcome> {
  return ctx.shared("rate-limit-burst", async () => {
    const path = probePath(ctx);
    if (!path) ctx.skip("the contract has no authenticated GET to probe the rate limit with");
    const probe = await ctx.req({ method: "GET", path });
    const limit = Number(probe.headers["ratelimit-limit"]) || ctx.client.limiter("main").limit || 5;
    // let the current window drain so the burst lands in fresh windows
    await sleep(1100);
    const n = Math.min(limit * 2 + 3, 250);
    let burst = await send(ctx, path, n);
    const successes = [burst.filter((e) => e.status >= 200 && e.status < 300).length];
    if (successes[0] > limit) {
      // a burst may straddle the boundary of a fixed window (D-RATE-WINDOW is lenient on the algorithm):
      // a second burst in fresh windows tells a boundary from a limit that is not enforced as advertised
      const wait = Number(burst.find((e) => e.status === 429)?.headers["retry-after"] ?? 1);
      await sleep(Math.max(1, wait) * 1000 + 100);
      const again = await send(ctx, path, n);
      successes.push(again.filter((e) => e.status >= 200 && e.status < 300).length);
      burst = [...burst, ...again];
    }
    const first429 = burst.find((e) => e.status === 429);
    const out: BurstOutcome = { limit, burst, successes, first429 };
    const otherRole = (["foreign", "second", "poor"] as KeyRole[]).find((r) => ctx.hasKey(r));
    if (otherRole) {
      out.otherRole = otherRole;
      out.other = await ctx.req({ method: "GET", path, key: otherRole, burst: true });
    }
    const wait = Number(first429?.headers["retry-after"] ?? 1);
    ctx.client.limiter("main").block(Math.max(1, wait) * 1000 + 50);
    await sleep(Math.max(1, wait) * 1000 + 50);
    out.after = await ctx.req({ method: "GET", path, burst: true, meta: { planned429: true } });
    return out;
  });
}
