// Speed and data are a deployment's own choices, never findings.
//
// SPEED: behind a proxy that answers only once the reference's pipeline is
// idle (steps at 0 ms), every run the kit starts has ended before the kit's
// first read of it. The checks that read a balance right after starting work
// judge it against the state they observed around that read (settled,
// released), never against a reservation they could not see, and they still
// fail when the balance is wrong for that state.
//
// DATA: a proxy refuses setup steps with the codes the seed allows a
// deployment for its own data or plan (too few eligible posts, no query to
// repeat, a cap reached, no audience research). The checks try the other
// setups they have, and failing those report "not exercised" with the code:
// skipped, never failed, never passed.
import { describe, expect, it } from "vitest";
import type { RunReport } from "../src/runner.ts";
import type { CheckResult } from "../src/types.ts";
import { json, type Body, type ProxyRequest, type ProxyResponse } from "../mutation/proxy.ts";
import { kitMoneyFaults } from "../mutation/faults-kit-money.ts";
import { seedLevelCheck } from "../mutation/deviations-levels.ts";
import { kitBehind, type Hooks } from "./kit-behind.ts";

const result = (r: RunReport, id: string): CheckResult => r.results.find((x) => x.id === id)!;
const failing = (r: RunReport) =>
  r.results
    .filter((x) => x.outcome === "fail" || x.outcome === "error")
    .map((x) => `${x.id}: ${x.failures[0]?.title ?? x.error?.split("\n")[0]}`);
const outcomes = (r: RunReport) => Object.fromEntries(r.results.map((x) => [x.id, x.outcome]));

const bodyOf = (q: ProxyRequest): Body => {
  try {
    return q.body ? JSON.parse(q.body) : undefined;
  } catch {
    return undefined;
  }
};
const withBody = (q: ProxyRequest, change: (b: Body) => void): ProxyRequest => {
  const b = bodyOf(q);
  change(b);
  return { ...q, body: JSON.stringify(b) };
};
const DATASET_RUNS = /^\/v1\/datasets\/([^/]+)\/runs$/;
const AUDIENCE_RUNS = /^\/v1\/audience_datasets\/[^/]+\/runs$/;
const CP_RUNS = /^\/v1\/custom_parameters\/[^/]+\/runs$/;
const TRIGGER = /^\/v1\/tracking_agents\/([^/]+)\/trigger$/;
/** The error answer a refusing deployment gives (its rate-limit headers kept from an answer of the same key). */
const refuse = (like: ProxyResponse, status: number, code: string): ProxyResponse =>
  json(
    like,
    {
      status: "client_error",
      error_code: code,
      detail: `Refused for this deployment's own reasons (${code}).`,
      transient: false,
    },
    status,
  );
/** A GET through the proxy's upstream with the request's own key. */
const read = (q: ProxyRequest, path: string, forward: (r: ProxyRequest) => Promise<ProxyResponse>) =>
  forward({ method: "GET", path, url: new URL(path, "http://proxy"), headers: { ...q.headers }, key: q.key });

/** 20 mentions at the demo account's rate (Pro: $0.0356 a unit), more than the kit's billed run reserves. */
const TWENTY_MENTIONS = 20 * 0.0356;

// ---- speed ------------------------------------------------------------------------------

/**
 * A fast deployment with its own data: every run ends before the kit can read
 * it; the audience source's posts carry no comments (its run collects fewer
 * profiles than it reserved), and the URL run the billing checks start and
 * the billed pattern detection fail at once (released before any read).
 */
const fastAndFrugal: Hooks = {
  request: (q) => {
    if (q.method !== "POST") return q;
    const b = bodyOf(q);
    if (DATASET_RUNS.test(q.url.pathname) && JSON.stringify(b?.search_query ?? "").includes("_aud_"))
      return withBody(q, (x) => (x.num_comments_per_post = 0));
    const failNow = { ...q, headers: { ...q.headers, prefer: "fault=run-failed" } };
    // the billing checks' run (its URLs carry the label "billed")
    if (DATASET_RUNS.test(q.url.pathname) && JSON.stringify(b?.search_query ?? "").includes("slk_billed_"))
      return failNow;
    if (q.url.pathname === "/v1/pattern_detections" && String(b?.name).endsWith("-patterns")) return failNow;
    return q;
  },
};

const SPEED_CHECKS = [
  "billing-reservation-at-create",
  "billing-settlement-exact",
  "billing-refund-on-failure",
  "audience-profile-billing",
  "pattern-detection-billing-latest-run",
  "custom-parameter-run-counters",
  "tracking-agent-cycle-billing",
  "run-state-machine",
  "audience-run-state-machine",
  "custom-parameter-run-state-machine",
  "pattern-detection-run-state-machine",
  "audience-run-409-in-flight",
  "custom-parameter-run-409-in-flight",
  "tracking-agent-trigger-202-then-409",
];
const NOT_OBSERVABLE = /reservation itself was not observable/;

describe("speed: every run has ended before the kit's first read", () => {
  it("passes: each balance is judged against the state read around it, the unseen reservation reported not exercised", async () => {
    const r = await kitBehind(fastAndFrugal, SPEED_CHECKS, { instant: true });
    expect(failing(r), JSON.stringify(outcomes(r))).toEqual([]);
    for (const id of [
      "billing-reservation-at-create",
      "audience-profile-billing",
      "pattern-detection-billing-latest-run",
      "custom-parameter-run-counters",
      "tracking-agent-cycle-billing",
    ]) {
      const x = result(r, id);
      expect(x.outcome, id).toBe("pass");
      expect(
        x.unexercised?.some((u) => NOT_OBSERVABLE.test(u)),
        `${id}: ${JSON.stringify(x.unexercised)}`,
      ).toBe(true);
    }
    // the audience run collected fewer profiles than it reserved, and the balance showed the settlement at once
    const aud = r.exchanges.find(
      (e) =>
        e.check === "audience-profile-billing" &&
        /^\/v1\/audience_datasets\/[^/]+\/runs\/[^/]+$/.test(e.path) &&
        e.status === 200,
    );
    expect((aud?.json as Body)?.data?.profile_count).toBeLessThan(8);
    // the billed run had failed before the balance was read: released, not reserved
    const run = r.exchanges.find((e) => e.check === "billing-reservation-at-create" && /\/runs\/[^/]+$/.test(e.path));
    expect((run?.json as Body)?.data?.status?.type).toBe("failed");
    for (const id of ["run-state-machine", "audience-run-state-machine", "custom-parameter-run-state-machine"])
      expect(result(r, id).outcome, id).toBe("pass");
  }, 120_000);

  it("still fails a balance that is wrong for the state observed (a failed run's reservation kept)", async () => {
    const kept: Hooks = {
      request: fastAndFrugal.request,
      response: (q, res, s) => {
        if (q.method === "GET" && /^\/v1\/datasets\/[^/]+\/runs\/[^/]+$/.test(q.url.pathname))
          if (res.json?.data?.status?.type === "failed") s.memo.set("failed", true);
        if (q.method === "GET" && q.url.pathname === "/v1/me" && s.memo.get("failed") && res.status === 200) {
          const body = structuredClone(res.json);
          body.data.usage.balance = Math.round((Number(body.data.usage.balance) - TWENTY_MENTIONS) * 1e6) / 1e6;
          return json(res, body);
        }
        return res;
      },
    };
    const r = await kitBehind(kept, ["billing-reservation-at-create"], { instant: true });
    const x = result(r, "billing-reservation-at-create");
    expect(x.outcome).toBe("fail");
    expect(x.failures[0]?.title).toMatch(/observed state \(failed\)/);
  }, 60_000);

  it("still fails an audience settlement a cent off when the run had ended before the first read", async () => {
    const cent: Hooks = {
      request: fastAndFrugal.request,
      response: (q, res, s) => {
        if (q.method === "GET" && /^\/v1\/audience_datasets\/[^/]+\/runs\/[^/]+$/.test(q.url.pathname))
          if (res.json?.data?.status?.type === "completed") s.memo.set("settled", true);
        if (q.method === "GET" && q.url.pathname === "/v1/me" && s.memo.get("settled") && res.status === 200) {
          const body = structuredClone(res.json);
          body.data.usage.balance = Math.round((Number(body.data.usage.balance) - 0.01) * 1e6) / 1e6;
          return json(res, body);
        }
        return res;
      },
    };
    const r = await kitBehind(cent, ["audience-profile-billing"], { instant: true });
    const x = result(r, "audience-profile-billing");
    expect(x.outcome).toBe("fail");
    expect(x.failures[0]?.title).toMatch(/observed state \(completed\)/);
  }, 60_000);
  it("still catches, at --level seed, the reservation, create and move rules where they show without a run in flight", async () => {
    // a reservation rule broken where no in-flight read is needed (an unfundable run accepted), the create's
    // 202 and pending, and a move back: each fault alone, its check scoped, every run ended before any answer
    for (const id of ["unfundable-run-accepted", "run-created-200", "run-created-working", "run-back-to-pending"]) {
      const f = kitMoneyFaults.find((x) => x.id === id)!;
      const r = await kitBehind(f, [f.expect], { instant: true });
      const seed = seedLevelCheck(r, f);
      expect(result(r, f.expect).outcome, id).toBe("fail");
      expect(seed.ok, `${id}: ${seed.outcome}, rows named ${seed.rows.join(", ")}`).toBe(true);
    }
  }, 120_000);
});

// ---- data -------------------------------------------------------------------------------

/** Audience runs refused (400 audience_insufficient_source_mentions) on a source of fewer than `min` posts. */
function audienceMinimum(min: number): Hooks {
  return {
    request: async (q, s) => {
      if (q.method !== "POST" || !AUDIENCE_RUNS.test(q.url.pathname)) return q;
      const source = bodyOf(q)?.source_dataset_id;
      if (typeof source !== "string") return q;
      const ds = await read(q, `/v1/datasets/${encodeURIComponent(source)}`, s.forward);
      const n = Number(ds.json?.data?.mentions_count);
      // an unknown or empty source keeps the deployment's own answer (404, no completed run), and so does a
      // YouTube-only one: the seed gives it its own code (audience_youtube_only_source)
      if (ds.status !== 200 || !(n > 0 && n < min)) return q;
      const posts = await s.forward({
        ...q,
        method: "POST",
        path: "/v1/mentions",
        url: new URL("/v1/mentions", q.url),
        body: JSON.stringify({ dataset_ids: [source], limit: 100 }),
      });
      const sources: unknown[] = (posts.json?.data ?? []).map((m: Body) => m?.source);
      if (sources.length > 0 && sources.every((x) => x === "youtube")) return q;
      return refuse(ds, 400, "audience_insufficient_source_mentions");
    },
  };
}

/** The checks whose setup is an audience run of the kit's. */
const AUDIENCE_RUN_CHECKS = [
  "audience-profile-billing",
  "audience-run-409-in-flight",
  "audience-run-state-machine",
  "audience-run-default-profile-count",
  "audience-profiles-after-source-delete",
];
const AUDIENCE_CHECKS = [...AUDIENCE_RUN_CHECKS, "audience-run-codes-in-order"];
const REFUSED_FOR_DATA =
  "not exercised: the deployment refused the setup (400 audience_insufficient_source_mentions) for its own data";

describe("data: setup steps refused for the deployment's own data or plan", () => {
  it("an audience run refused on every source the kit can build: the dependent checks skip naming the code, none fails", async () => {
    const r = await kitBehind(audienceMinimum(1000), AUDIENCE_CHECKS);
    expect(failing(r), JSON.stringify(outcomes(r))).toEqual([]);
    for (const id of AUDIENCE_RUN_CHECKS) {
      const x = result(r, id);
      expect(x.outcome, id).toBe("skip");
      expect(x.skipReason, id).toContain(REFUSED_FOR_DATA);
    }
    // the larger and other sources were tried before giving up
    expect(result(r, "audience-profile-billing").skipReason).toMatch(/also tried: .*keyword run of 20 reddit posts/);
    // the rule that is about these codes still runs (the order of codes is lenient: a warning)
    expect(result(r, "audience-run-codes-in-order").outcome).toBe("pass");
  }, 120_000);

  it("an audience run refused on the kit's six posts but accepted on a larger source: the checks run there and pass", async () => {
    const r = await kitBehind(audienceMinimum(10), AUDIENCE_CHECKS);
    expect(failing(r), JSON.stringify(outcomes(r))).toEqual([]);
    for (const id of AUDIENCE_CHECKS) expect(result(r, id).outcome, id).toBe("pass");
    const prompt = r.exchanges.filter(
      (e) => e.method === "POST" && DATASET_RUNS.test(e.path) && /"type":"prompt"/.test(e.requestBody ?? ""),
    );
    expect(prompt.length).toBeGreaterThan(0);
  }, 120_000);

  it("custom parameter runs refused (nothing_to_analyze) and the first trigger refused (dataset_has_no_queries) on the kit's URL datasets: the larger setups are used", async () => {
    const needs: Hooks = {
      request: async (q, s) => {
        if (q.method !== "POST") return q;
        if (CP_RUNS.test(q.url.pathname)) {
          const scope = bodyOf(q)?.scope?.id;
          const ds = await read(q, `/v1/datasets/${encodeURIComponent(String(scope))}`, s.forward);
          const n = Number(ds.json?.data?.mentions_count);
          return ds.status === 200 && n > 0 && n < 10 ? refuse(ds, 400, "nothing_to_analyze") : q;
        }
        const agent = q.url.pathname.match(TRIGGER)?.[1];
        if (agent) {
          // only a keyword (prompt) run is a query this deployment repeats
          const a = await read(q, `/v1/tracking_agents/${agent}`, s.forward);
          let queries = 0;
          for (const id of a.json?.data?.dataset_ids ?? []) {
            const runs = await read(q, `/v1/datasets/${encodeURIComponent(id)}/runs?limit=100`, s.forward);
            queries += (runs.json?.data ?? []).filter((x: Body) => x?.params?.search_query?.type === "prompt").length;
          }
          return a.status === 200 && queries === 0 ? refuse(a, 400, "dataset_has_no_queries") : q;
        }
        return q;
      },
    };
    const only = [
      "custom-parameter-run-counters",
      "custom-parameter-run-409-in-flight",
      "tracking-agent-cycle-billing",
    ];
    const r = await kitBehind(needs, only);
    expect(failing(r), JSON.stringify(outcomes(r))).toEqual([]);
    for (const id of only) expect(result(r, id).outcome, id).toBe("pass");
  }, 120_000);

  it("caps and plan features refuse the setup: the checks skip naming the code", async () => {
    const capped: Hooks = {
      request: async (q, s) => {
        if (q.method !== "POST") return q;
        const like = () => read(q, "/v1/prices", s.forward);
        if (q.url.pathname === "/v1/custom_parameters")
          return refuse(await like(), 400, "custom_parameter_limit_exceeded");
        if (q.url.pathname === "/v1/tracking_agents") return refuse(await like(), 409, "tracking_agent_limit_reached");
        if (q.url.pathname === "/v1/audience_datasets") return refuse(await like(), 400, "bad_request");
        return q;
      },
    };
    const only = [
      "custom-parameter-name-rules",
      "custom-parameter-run-counters",
      "tracking-agent-cycle-billing",
      "tracking-agent-deleted-hidden",
      "audience-profile-billing",
    ];
    const r = await kitBehind(capped, only);
    expect(failing(r), JSON.stringify(outcomes(r))).toEqual([]);
    const reason = (id: string) => result(r, id).skipReason;
    expect(reason("custom-parameter-name-rules")).toContain("(400 custom_parameter_limit_exceeded) for its own plan");
    expect(reason("custom-parameter-run-counters")).toContain("(400 custom_parameter_limit_exceeded) for its own plan");
    expect(reason("tracking-agent-cycle-billing")).toContain("(409 tracking_agent_limit_reached) for its own plan");
    expect(reason("tracking-agent-deleted-hidden")).toContain("(409 tracking_agent_limit_reached) for its own plan");
    expect(reason("audience-profile-billing")).toContain("(400 bad_request) for its own plan");
  }, 60_000);
});
