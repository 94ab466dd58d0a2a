// Tracking agent scenarios shared by their checks: agents created by the kit
// (tracked for cleanup) and one agent driven through two triggered cycles,
// observed for codes, billing and the alert feed.
import type { Decimal } from "decimal.js";
import type { CheckContext } from "../../types.ts";
import { sleep, type Exchange } from "../../http.ts";
import { dataOf, type Untrusted } from "../../typed.ts";
import type {
  DatasetsDatasetRun,
  TrackingAgentsAgentRun,
  TrackingAgentsTrackingAgent,
} from "../../../../generated/client/types.gen.ts";
import { setupNotAccepted } from "./util.ts";
import {
  balanceOf,
  balanceWindow,
  countOf,
  pollUntil,
  postUrls,
  priceOf,
  refusedSetup,
  runIdOf,
  sendTwins,
  setupRefusal,
  sourceDataset,
  splitTwins,
  terminalType,
  type BalanceWindow,
  type RunMoney,
} from "./groups.ts";
import { datasetRunMoney } from "./billing.ts";

export const TA = "/v1/tracking_agents";
export const agentPath = (id: string) => `${TA}/${encodeURIComponent(id)}`;
export const AGENT_COUNT = 20;

export async function createAgent(
  ctx: CheckContext,
  label: string,
  datasetIds: string[],
): Promise<{ id: string; ex: Exchange }> {
  ctx.mutates(`tracking agent ${label}`);
  const ex = await ctx.req({
    method: "POST",
    path: TA,
    body: {
      name: ctx.name(label),
      instructions: "Flag shifts in sentiment about oat milk latte art.",
      dataset_ids: datasetIds,
      count: AGENT_COUNT,
      num_comments_per_post: 0,
      schedule: { frequency: "daily", time: "09:00" },
    },
  });
  const id = dataOf<TrackingAgentsTrackingAgent>(ex)?.id;
  // created with another 2xx: the check goes on with the agent (the status is documented-status-only's to judge)
  if (ex.status < 200 || ex.status >= 300 || typeof id !== "string") {
    // the plan's cap on agents (tracking_agent_limit_reached; the seed names no status): not exercised, never failed
    const refusal = setupRefusal(ex);
    if (refusal) refusedSetup(ctx, refusal, `creating tracking agent ${label}`);
    setupNotAccepted(ctx, `creating tracking agent ${label}`, ex);
  }
  ctx.track("tracking agent", agentPath(id));
  return { id, ex };
}

/** A dataset run of an agent cycle as last read (undefined when its answer had no run). */
export type CycleRun = Untrusted<DatasetsDatasetRun> | undefined;

/** Poll every dataset run a cycle started until it ends. */
export async function settleCycle(
  ctx: CheckContext,
  datasetId: string,
  run: Untrusted<TrackingAgentsAgentRun> | undefined,
): Promise<CycleRun[]> {
  const out: CycleRun[] = [];
  for (const rid of Array.isArray(run?.dataset_run_ids) ? run.dataset_run_ids : [])
    out.push(
      (
        await pollUntil<DatasetsDatasetRun>(
          ctx,
          `/v1/datasets/${encodeURIComponent(datasetId)}/runs/${encodeURIComponent(rid)}`,
          terminalType,
        )
      ).at(-1)!.d,
    );
  return out;
}

/** The mentions one dataset run of a cycle reserves: its count, capped at its URLs for a URL search (D-RUN-COUNT). */
export function cycleRunUnits(r: CycleRun): number {
  const q = r?.params?.search_query;
  const count = countOf(r?.params?.count) ?? AGENT_COUNT;
  return q?.type === "url" && Array.isArray(q.source_urls) ? Math.min(count, q.source_urls.length) : count;
}

/** A cycle's dataset run's money, as any dataset run's (its reservation sized by cycleRunUnits). */
function cycleRunMoney(price: Decimal): (d: unknown) => RunMoney | undefined {
  return (d) => datasetRunMoney(price, cycleRunUnits(d as CycleRun))(d);
}

export interface Cycles {
  agent: string;
  datasetId: string;
  mentionPrice: Decimal;
  before: Decimal;
  /** the balance right after the first trigger, with the cycle's dataset runs read around it */
  afterTrigger: BalanceWindow;
  afterSettle: Decimal;
  /** of the twin first triggers (sent together), the accepted one (the first when neither was) */
  first: Exchange;
  /** the other twin */
  second: Exchange;
  /**
   * How the twins fared: `split` when one was accepted and the other refused
   * (the refusal can only be about the accepted one's cycle); `both-running`
   * when both were accepted and both cycles still had a dataset run pending
   * or working afterwards (each was running when the other arrived);
   * `unknown` otherwise (the rule is not exercised).
   */
  twins: "split" | "both-running" | "unknown";
  firstRuns: CycleRun[];
  secondRuns: CycleRun[];
  third?: Exchange;
  thirdRuns: CycleRun[];
}

/** One agent on a small dataset: trigger, trigger again at once, let the cycle end, trigger once more. */
export function agentCycles(ctx: CheckContext): Promise<Cycles> {
  return ctx.shared("agent-cycles", async () => {
    const mentionPrice = await priceOf(ctx, "mention");
    const src = await sourceDataset(ctx, "agent-source", postUrls(ctx, "reddit", 2, "ta"));
    const agent = await createAgent(ctx, "agent-cycles", [src.id]);
    const releaseCycles = ctx.charge(
      mentionPrice.mul(AGENT_COUNT * 3).toFixed(),
      "up to three agent cycles of one dataset run each",
    );
    const accepted = (ex: Exchange) => ex.status >= 200 && ex.status < 300;
    // the first cycle's trigger is sent twice at once: one starts the cycle, the other arrives while it is as
    // young as it can be (the in-progress rule), a second cycle only if the deployment accepts both
    const trigger = () => ctx.req({ method: "POST", path: `${agentPath(agent.id)}/trigger` });
    let { balance: before } = await balanceOf(ctx);
    let pair = await sendTwins(trigger);
    let triggeredAt = Date.now();
    // the first trigger is the setup of every cycle rule: refused because the deployment finds no query it
    // repeats in the dataset (its URL run; dataset_has_no_queries), a keyword run gives it one, once
    const refusal = pair.some(accepted) ? undefined : setupRefusal(pair[0]);
    if (refusal?.reason === "data") {
      const tried = "a keyword run of 20 reddit posts added to the agent's dataset";
      ctx.charge(mentionPrice.mul(AGENT_COUNT).toFixed(), tried);
      const kw = await ctx.req({
        method: "POST",
        path: `/v1/datasets/${encodeURIComponent(src.id)}/runs`,
        body: {
          search_query: { type: "prompt", sources: ["reddit"], search_query: "oat milk latte art" },
          count: AGENT_COUNT,
          num_comments_per_post: 0,
        },
      });
      const kwId = runIdOf(kw);
      if (kw.status !== 202 || !kwId)
        refusedSetup(ctx, refusal, "triggering the agent's first cycle", [`${tried} (answered ${kw.status})`]);
      await pollUntil(ctx, `/v1/datasets/${encodeURIComponent(src.id)}/runs/${encodeURIComponent(kwId)}`, terminalType);
      ({ balance: before } = await balanceOf(ctx));
      pair = await sendTwins(trigger);
      triggeredAt = Date.now();
      const again = pair.some(accepted) ? undefined : setupRefusal(pair[0]);
      if (again) refusedSetup(ctx, again, "triggering the agent's first cycle", [tried]);
    } else if (refusal) refusedSetup(ctx, refusal, "triggering the agent's first cycle");
    const first = pair.find(accepted) ?? pair[0];
    const second = first === pair[0] ? pair[1] : pair[0];
    // the balance right after the triggers, with each dataset run of the cycles read around it
    const runPath = (rid: string) => `/v1/datasets/${encodeURIComponent(src.id)}/runs/${encodeURIComponent(rid)}`;
    const runIdsOf = (ex: Exchange) => {
      const ids = accepted(ex) ? dataOf<TrackingAgentsAgentRun>(ex)?.dataset_run_ids : undefined;
      return (Array.isArray(ids) ? ids : []).filter((rid): rid is string => typeof rid === "string");
    };
    const afterTrigger = await balanceWindow(
      ctx,
      [...runIdsOf(first), ...runIdsOf(second)].map((rid) => ({
        path: runPath(rid),
        money: cycleRunMoney(mentionPrice),
      })),
    );
    // both accepted: each cycle was running when the other's trigger arrived only if both still run now
    let bothRunning = false;
    if (accepted(first) && accepted(second)) {
      const running = async (ex: Exchange) => {
        for (const rid of runIdsOf(ex)) {
          const type = dataOf<DatasetsDatasetRun>(await ctx.req({ method: "GET", path: runPath(rid) }))?.status?.type;
          if (type === "pending" || type === "working") return true;
        }
        return false;
      };
      bothRunning = (await running(first)) && (await running(second));
    }
    const cycle = (ex: Exchange) => settleCycle(ctx, src.id, dataOf<TrackingAgentsAgentRun>(ex));
    const firstRuns = accepted(first) ? await cycle(first) : [];
    const secondRuns = accepted(second) ? await cycle(second) : [];
    const { balance: afterSettle } = await balanceOf(ctx);
    // the agent run finishes once its dataset runs have: retry a few times on 409; a second apart from the first
    // cycle at least, so the two alerts carry different created_at seconds (the feed's order shows)
    await sleep(Math.max(0, triggeredAt + 1_100 - Date.now()));
    let third: Exchange | undefined;
    for (let i = 0; i < 20; i++) {
      third = await trigger();
      if (third.status !== 409) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const thirdRuns = third && accepted(third) ? await cycle(third) : [];
    // every cycle has ended: the kit's commitment becomes what they cost
    const charged = before.minus((await balanceOf(ctx)).balance);
    if (charged.isFinite() && charged.gte(0) && charged.lte(mentionPrice.mul(AGENT_COUNT * 3))) {
      releaseCycles();
      if (charged.gt(0)) ctx.charge(charged.toFixed(), "the agent cycles, as the balance shows they cost");
    }
    return {
      agent: agent.id,
      datasetId: src.id,
      mentionPrice,
      before,
      afterTrigger,
      afterSettle,
      first,
      second,
      twins: splitTwins(pair) ? "split" : bothRunning ? "both-running" : "unknown",
      firstRuns,
      secondRuns,
      third,
      thirdRuns,
    };
  });
}
