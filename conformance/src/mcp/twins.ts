// Every MCP read tool paired with its REST twin, filled with ids of resources
// the account already has (found over REST), so agreement and free-read checks
// call each tool with arguments that reach real data.
import type {
  DatasetsDataset,
  DatasetsDatasetRun,
  PatternsPatternDetectionRun,
} from "../../../generated/client/types.gen.ts";
import type { Exchange } from "../http.ts";
import type { CheckContext } from "../types.ts";
import { detection } from "../checks/support/patterns.ts";
import { SkipError } from "../skip.ts";
import { dataOf, isObject, type Untrusted } from "../typed.ts";

/** `data` of a list answer as sent, each item read as `T`; undefined when `data` is not an array. */
function listOf<T>(ex: Exchange): Untrusted<T>[] | undefined {
  const data = isObject(ex.json) ? ex.json.data : undefined;
  return Array.isArray(data) ? (data as Untrusted<T>[]) : undefined;
}

async function detectionRunId(ctx: CheckContext): Promise<string | undefined> {
  try {
    return dataOf<PatternsPatternDetectionRun>((await detection(ctx)).create)?.run_id;
  } catch (e) {
    if (e instanceof SkipError) return undefined;
    throw e;
  }
}

export interface Twin {
  tool: string;
  args: Record<string, unknown>;
  rest: { method: "GET" | "POST"; path: string; body?: unknown };
  /** list tools return {content, cursor}; REST lists return data + has_next */
  list: boolean;
}

async function firstId(ctx: CheckContext, path: string): Promise<string | undefined> {
  if (!ctx.contract.match("GET", path.split("?")[0])) return undefined;
  const ex = await ctx.req({ method: "GET", path });
  const first: unknown = listOf(ex)?.[0];
  return isObject(first) && typeof first.id === "string" ? first.id : undefined;
}

/** The twins the account's data allows (a tool whose resource the account lacks is reported as not exercised). */
export async function twins(ctx: CheckContext): Promise<{ twins: Twin[]; missing: string[] }> {
  return ctx.shared("mcp-twins", async () => {
    const out: Twin[] = [];
    const missing: string[] = [];
    const page = { limit: 5 };
    out.push({ tool: "svc__get_me", args: {}, rest: { method: "GET", path: "/v1/me" }, list: false });
    out.push({
      tool: "svc__list_datasets",
      args: page,
      rest: { method: "GET", path: "/v1/datasets?limit=5" },
      list: true,
    });
    // a dataset with a run: walk the first few datasets
    const dsList = listOf<DatasetsDataset>(await ctx.req({ method: "GET", path: "/v1/datasets?limit=10" }));
    let withRun: { ds: string | undefined; run: string } | undefined;
    for (const ds of dsList ? dsList.slice(0, 5) : []) {
      const runs = listOf<DatasetsDatasetRun>(
        await ctx.req({ method: "GET", path: `/v1/datasets/${encodeURIComponent(String(ds.id))}/runs?limit=1` }),
      );
      const run = runs?.[0]?.id;
      if (run) {
        withRun = { ds: ds.id, run };
        break;
      }
    }
    if (dsList?.[0])
      out.push({
        tool: "svc__get_dataset",
        args: { dataset_id: dsList[0].id },
        rest: { method: "GET", path: `/v1/datasets/${encodeURIComponent(String(dsList[0].id))}` },
        list: false,
      });
    else missing.push("svc__get_dataset: the account has no dataset");
    if (withRun)
      out.push({
        tool: "svc__get_dataset_run",
        args: { dataset_id: withRun.ds, run_id: withRun.run },
        rest: {
          method: "GET",
          path: `/v1/datasets/${encodeURIComponent(String(withRun.ds))}/runs/${encodeURIComponent(withRun.run)}`,
        },
        list: false,
      });
    else missing.push("svc__get_dataset_run: no dataset of the account has a run");
    out.push({
      tool: "svc__list_mentions",
      args: { limit: 5, sort: "likes", order: "desc" },
      rest: { method: "POST", path: "/v1/mentions", body: { limit: 5, sort: "likes", order: "desc" } },
      list: true,
    });
    if (ctx.contract.op("GET /v1/audience_datasets")) {
      out.push({
        tool: "svc__list_audience_datasets",
        args: page,
        rest: { method: "GET", path: "/v1/audience_datasets?limit=5" },
        list: true,
      });
      out.push({
        tool: "svc__list_audience_profiles",
        args: { limit: 5 },
        rest: { method: "POST", path: "/v1/audience_profiles", body: { limit: 5 } },
        list: true,
      });
      // an audience dataset with a run: the first few of the account's, else the first one
      const ads = listOf<{ id: string }>(await ctx.req({ method: "GET", path: "/v1/audience_datasets?limit=5" })) ?? [];
      let ad: string | undefined;
      let adr: string | undefined;
      for (const a of ads) {
        if (typeof a?.id !== "string") continue;
        ad ??= a.id;
        const run = await firstId(ctx, `/v1/audience_datasets/${encodeURIComponent(a.id)}/runs?limit=1`);
        if (run) {
          ad = a.id;
          adr = run;
          break;
        }
      }
      if (ad) {
        out.push({
          tool: "svc__get_audience_dataset",
          args: { audience_dataset_id: ad },
          rest: { method: "GET", path: `/v1/audience_datasets/${encodeURIComponent(ad)}` },
          list: false,
        });
        if (adr)
          out.push({
            tool: "svc__get_audience_dataset_run",
            args: { audience_dataset_id: ad, run_id: adr },
            rest: {
              method: "GET",
              path: `/v1/audience_datasets/${encodeURIComponent(ad)}/runs/${encodeURIComponent(adr)}`,
            },
            list: false,
          });
        else missing.push("svc__get_audience_dataset_run: none of the account's first audience datasets has a run");
      } else missing.push("svc__get_audience_dataset(_run): the account has no audience dataset");
    } else missing.push("audience tools: the REST twins are outside the contract scope");
    if (ctx.contract.op("GET /v1/tracking_agents")) {
      out.push({
        tool: "svc__list_tracking_agents",
        args: page,
        rest: { method: "GET", path: "/v1/tracking_agents?limit=5" },
        list: true,
      });
      const ta = await firstId(ctx, "/v1/tracking_agents?limit=1");
      if (ta)
        out.push({
          tool: "svc__get_tracking_agent",
          args: { agent_id: ta },
          rest: { method: "GET", path: `/v1/tracking_agents/${encodeURIComponent(ta)}` },
          list: false,
        });
      else missing.push("svc__get_tracking_agent: the account has no tracking agent");
    } else missing.push("tracking agent tools: the REST twins are outside the contract scope");
    // pattern detection runs cannot be listed: use the one the pattern checks started (standard profile)
    const pdr =
      ctx.settings.profile !== "readonly" && ctx.contract.op("POST /v1/pattern_detections")
        ? await detectionRunId(ctx)
        : undefined;
    if (pdr)
      out.push({
        tool: "svc__get_pattern_detection_run",
        args: { run_id: pdr },
        rest: { method: "GET", path: `/v1/pattern_detections/${encodeURIComponent(pdr)}` },
        list: false,
      });
    else
      missing.push(
        "svc__get_pattern_detection_run: no pattern detection run to read (readonly profile, or none could be started)",
      );
    return { twins: out, missing };
  });
}
