import type { CheckContext } from "../../types.ts";
import { sleep, type Exchange, type KeyRole } from "../../http.ts";
import { groupsOf } from "../../groups/index.ts";

export interface BurstOutcome {
  limit: number;
  /**
   * Sequential calls from a bucket left alone for longer than its reset,
   * until the first 429 (at most 2 × limit + 3): how RateLimit-Remaining
   * counts the calls of one window down.
   */
  countdown: Exchange[];
  burst: Exchange[];
  /** successes of each burst sent (a second burst is sent only when the first let more than `limit` through) */
  successes: number[];
  /** how long each burst took from its first request sent to its last answer, in ms (a burst longer than a second is not one window) */
  spans: number[];
  first429?: Exchange;
  other?: Exchange; // another key, sent while the first is throttled
  otherRole?: KeyRole;
  /** the first key again, right after the other key's call: still throttled tells the other call came inside the window */
  still?: Exchange;
  /** the 429 whose Retry-After the kit waited before `after` */
  waited?: Exchange;
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

/** From the first request of a burst sent to its last answer, in ms. */
function spanOf(exs: Exchange[]): number {
  const starts = exs.map((e) => e.started ?? Date.now());
  const ends = exs.map((e, i) => starts[i]! + e.ms);
  return Math.max(...ends) - Math.min(...starts);
}

/** How long until a bucket left alone has fully reset: its RateLimit-Reset (at most a second is the seed's), plus a margin. */
function resetWait(ex: Exchange): number {
  const reset = Number(ex.headers["ratelimit-reset"]);
  return (Number.isFinite(reset) && reset >= 1 && reset <= 5 ? reset : 1) * 1000 + 150;
}

/** One planned countdown and burst per kit run: the only 429s the kit provokes on purpose. */
export function burst(ctx: CheckContext): Promise<BurstOutcome> {
  return ctx.shared("rate-limit-burst", async () => {
    const path = probePath(ctx);
    if (!path) ctx.skip("the contract has no authenticated GET to probe the rate limit with");
    const probe = await ctx.req({ method: "GET", path });
    const limit = Number(probe.headers["ratelimit-limit"]) || ctx.client.limiter("main").limit || 5;
    // let the bucket fully reset (RateLimit-Reset is at most one second), then count it down call by call
    await sleep(resetWait(probe));
    const n = Math.min(limit * 2 + 3, 250);
    const countdown: Exchange[] = [];
    for (let i = 0; i < n; i++) {
      const ex = await ctx.req({ method: "GET", path, burst: true, meta: { planned429: true } });
      countdown.push(ex);
      if (ex.status === 429) break;
    }
    // a fresh window for the burst: the countdown's Retry-After, else a whole second
    await sleep(Math.max(1, Number(countdown.at(-1)?.headers["retry-after"]) || 1) * 1000 + 100);
    let burst = await send(ctx, path, n);
    const successes = [burst.filter((e) => e.status >= 200 && e.status < 300).length];
    const spans = [spanOf(burst)];
    if (successes[0] > limit) {
      // a burst may straddle the boundary of a fixed window (D-RATE-WINDOW is lenient on the algorithm):
      // a second burst in fresh windows tells a boundary from a limit that is not enforced as advertised
      const wait = Number(burst.find((e) => e.status === 429)?.headers["retry-after"] ?? 1);
      await sleep(Math.max(1, wait) * 1000 + 100);
      const again = await send(ctx, path, n);
      successes.push(again.filter((e) => e.status >= 200 && e.status < 300).length);
      spans.push(spanOf(again));
      burst = [...burst, ...again];
    }
    const first429 = burst.find((e) => e.status === 429);
    const out: BurstOutcome = { limit, countdown, burst, successes, spans, first429 };
    const otherRole = (["foreign", "second", "poor"] as KeyRole[]).find((r) => ctx.hasKey(r));
    if (otherRole) {
      out.otherRole = otherRole;
      out.other = await ctx.req({ method: "GET", path, key: otherRole, burst: true });
      out.still = await ctx.req({ method: "GET", path, burst: true, meta: { planned429: true } });
    }
    // the newest 429's wait: the key must work again once it has passed
    out.waited = out.still?.status === 429 ? out.still : first429;
    const wait = Number(out.waited?.headers["retry-after"] ?? 1);
    ctx.client.limiter("main").block(Math.max(1, wait) * 1000 + 50);
    await sleep(Math.max(1, wait) * 1000 + 50);
    out.after = await ctx.req({ method: "GET", path, burst: true, meta: { planned429: true } });
    return out;
  });
}
