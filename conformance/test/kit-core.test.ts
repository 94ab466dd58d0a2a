// The kit's core: decision coverage, the lenient registry, group descriptors,
// the generic run model, and the weak spots of the old checks — each weak-spot
// test puts a fault-injecting proxy in front of the reference that the old
// check let pass, and asserts the check now fails or skips.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { allChecks } from "../src/registry.ts";
import { buildProgram, applyConfig, coverageVerdict, settingsFrom } from "../src/cli.ts";
import { Contract } from "../src/contract.ts";
import { readDecisions } from "../src/decisions.ts";
import { PENDING_DECISIONS } from "../src/decisions-pending.ts";
import { groupOf, groupsOf } from "../src/groups/index.ts";
import { moneyFields } from "../src/groups/money.ts";
import { LENIENT } from "../src/lenient.ts";
import { ModelViolation, RunModel, observe } from "../src/model/model.ts";
import { UsageError, checkBaseUrl } from "../src/preflight.ts";
import { progressEnabled, progressText } from "../src/reporters/progress.ts";
import { runKit, type RunReport } from "../src/runner.ts";
import { htmlReport } from "../src/reporters/html.ts";
import { summaryMarkdown } from "../src/reporters/summary-md.ts";
import { json, startProxy, type Fault } from "../mutation/proxy.ts";
import { demoKeys, inspectWith, settings, startReference } from "./helpers.ts";
import type { Exchange } from "../src/http.ts";
import type { Settings } from "../src/types.ts";

const contract = Contract.load();

/** The reference behind a proxy with one fault; the kit restricted to `only`. */
async function behind(fault: Fault | undefined, over: Partial<Settings>, rate = 50): Promise<RunReport> {
  const ref = await startReference({ rateLimitPerSecond: rate });
  const proxy = await startProxy(ref.baseUrl, fault, demoKeys());
  try {
    return await runKit(settings(proxy.baseUrl, { numRuns: 2, ...over }));
  } finally {
    await proxy.close();
    await ref.close();
  }
}
const result = (r: RunReport, id: string) => r.results.find((x) => x.id === id)!;

describe("decision coverage", () => {
  const rows = readDecisions();
  const declared = new Set(allChecks.flatMap((c) => c.decisions ?? []));
  it("every strict or lenient row of spec/DECISIONS.md has a check declaring it, or a pending entry with a reason", () => {
    expect(rows.length).toBeGreaterThan(50);
    const missing = rows
      .filter((r) => r.checkable && !declared.has(r.id) && !PENDING_DECISIONS[r.id])
      .map((r) => `${r.id} (${r.kit})`);
    expect(missing).toEqual([]);
  });
  it("no check declares a decision the table does not have, and no pending entry is stale", () => {
    const ids = new Set(rows.map((r) => r.id));
    expect([...declared].filter((d) => !ids.has(d))).toEqual([]);
    expect(
      Object.keys(PENDING_DECISIONS).filter(
        (d) => !ids.has(d) || declared.has(d) || !rows.find((r) => r.id === d)!.checkable,
      ),
    ).toEqual([]);
  });
  it("rows marked not checked are exempt, and every lenient rule of the registry is a lenient row", () => {
    expect(rows.find((r) => r.id === "D-KEY-PREFIX")?.checkable).toBe(false);
    for (const id of Object.keys(LENIENT)) expect(rows.find((r) => r.id === id)?.kit, id).toMatch(/lenient|advisory/);
  });
});

describe("one lenient registry", () => {
  const ex = (over: Partial<Exchange>): Exchange => ({
    seq: 1,
    check: "t",
    method: "GET",
    url: "http://x/v1/prices",
    path: "/v1/prices",
    keyRole: "main",
    requestHeaders: {},
    status: 200,
    headers: {},
    text: "",
    json: undefined,
    meta: {},
    ms: 1,
    ...over,
  });
  const inspect = (id: string, e: Exchange) => inspectWith(contract, id, e);
  it('status "info" on a 2xx is accepted with a warning by every check that looks at it (D-STATUS-STRING)', () => {
    const body = JSON.parse(
      JSON.stringify((contract.op("GET /v1/prices")!.responsesRaw["200"] as any).content["application/json"].examples),
    ) as Record<string, { value: any }>;
    const value = { ...Object.values(body)[0].value, status: "info" };
    const e = ex({ json: value, text: JSON.stringify(value), op: contract.op("GET /v1/prices") });
    for (const id of ["status-string-mapping", "response-schema-conformance", "success-envelope"]) {
      const r = inspect(id, e);
      expect(r.fail, id).toBe(0);
    }
    expect(inspect("status-string-mapping", e).warnings).toContain("D-STATUS-STRING");
    expect(inspect("response-schema-conformance", e).warnings).toContain("D-STATUS-STRING");
    // and a real departure still fails
    const bad = { ...value, status: "ok" };
    expect(
      inspect("status-string-mapping", ex({ json: bad, text: JSON.stringify(bad), op: contract.op("GET /v1/prices") }))
        .fail,
    ).toBe(1);
  });
  it("an unknown run's 404 code is tolerated with a warning on the run read only, the rest of the envelope still validated (D-RUN-404)", () => {
    const op = contract.op("GET /v1/datasets/{dataset_id}/runs/{run_id}")!;
    const body = { status: "client_error", error_code: "not_found", detail: "Run not found.", transient: false };
    const e = ex({
      method: "GET",
      path: "/v1/datasets/ds_x/runs/dsr_x",
      status: 404,
      json: body,
      text: JSON.stringify(body),
      op,
    });
    const r = inspect("response-schema-conformance", e);
    expect(r).toMatchObject({ fail: 0, pass: 1, warnings: ["D-RUN-404"] });
    // a broken envelope behind the tolerated code still fails
    const broken = { ...body, transient: "no" };
    expect(
      inspect(
        "response-schema-conformance",
        ex({
          method: "GET",
          path: "/v1/datasets/ds_x/runs/dsr_x",
          status: 404,
          json: broken,
          text: JSON.stringify(broken),
          op,
        }),
      ).fail,
    ).toBe(1);
    // the same code on the dataset read is not tolerated: D-RUN-404 is the run read's
    const ds = contract.op("GET /v1/datasets/{dataset_id}")!;
    expect(
      inspect(
        "response-schema-conformance",
        ex({ method: "GET", path: "/v1/datasets/ds_x", status: 404, json: body, text: JSON.stringify(body), op: ds }),
      ).fail,
    ).toBe(1);
  });
});

describe("groups as data", () => {
  it("derives operations, codes, states, steps and prefixes from the contract", () => {
    const ds = groupOf(contract, "datasets")!;
    expect(ds.ops.create?.key).toBe("POST /v1/datasets");
    expect(ds.itemParam).toBe("dataset_id");
    expect(ds.idPrefix).toBe("ds_");
    expect(ds.notFound).toEqual(["dataset_not_found"]);
    expect(ds.run?.code402).toBe("insufficient_credits_dataset_run");
    expect(ds.run?.statusEnum).toEqual(["pending", "working", "completed", "failed"]);
    expect(ds.run?.steps).toEqual(["scraping", "enrichment", "analysis"]);
    expect(ds.run?.idPrefix).toBe("dsr_");
    expect(ds.run?.createStatus).toBe(202);
  });
  it("describes every run kind with states the contract allows", () => {
    for (const g of groupsOf(contract).filter((x) => x.run)) {
      const run = g.run!;
      expect(run.statusEnum.length, g.id).toBeGreaterThan(0);
      for (const s of [run.states.pending, ...run.states.working, run.states.completed, run.states.failed])
        expect(run.statusEnum, `${g.id} ${s}`).toContain(s);
      expect(run.code402, g.id).toMatch(/^insufficient_credits/);
      expect(g.price?.units, g.id).toBeGreaterThan(0);
    }
  });
  it("scoping the contract drops the groups it no longer serves", () => {
    const scoped = Contract.load(undefined, ["/v1/datasets"]);
    expect(groupsOf(scoped).map((g) => g.id)).toEqual(["datasets"]);
  });
  it("finds every Dollars field of the contract (the money table)", () => {
    const t = moneyFields(contract);
    expect(t.get("GET /v1/me")).toEqual(expect.arrayContaining(["data.usage.balance"]));
    expect(t.get("GET /v1/me/usage_history")).toEqual(["data[].quantity"]);
    expect(t.get("GET /v1/prices")).toEqual(expect.arrayContaining(["data.prices.mention", "data.rate"]));
  });
});

describe("generic run model", () => {
  const cp = groupOf(contract, "custom-parameters")!.run!;
  const kind = {
    check: "cp-state-machine",
    states: cp.states,
    statusAt: cp.statusAt,
    counts: ["mentions_done", "mentions_error"],
  };
  const ex = { status: 200 } as Exchange;
  it("accepts the custom parameter run's processing → completed and refuses a terminal run moving back", () => {
    const m = new RunModel(kind, 1);
    observe(m, "cpr_1", { status: { type: "processing" }, mentions_done: 1 }, ex);
    observe(m, "cpr_1", { status: { type: "completed" }, mentions_done: 3 }, ex);
    expect(() => observe(m, "cpr_1", { status: { type: "processing" }, mentions_done: 3 }, ex)).toThrow(ModelViolation);
  });
  it("refuses counters that shrink and states outside the kind", () => {
    const m = new RunModel(kind, 1);
    observe(m, "cpr_2", { status: { type: "processing" }, mentions_done: 5 }, ex);
    expect(() => observe(m, "cpr_2", { status: { type: "processing" }, mentions_done: 4 }, ex)).toThrow(/decreased/);
    expect(() => observe(new RunModel(kind, 1), "cpr_3", { status: { type: "working" } }, ex)).toThrow(
      /unknown status/,
    );
  });
});

describe("adoption", () => {
  it("preflight refuses a base URL already suffixed with /v1, in one line", () => {
    expect(() => checkBaseUrl("http://127.0.0.1:3000/v1")).toThrow(UsageError);
    expect(() => checkBaseUrl("http://127.0.0.1:3000/v1/")).toThrow(/give the deployment root/);
    expect(() => checkBaseUrl("127.0.0.1:3000")).toThrow(UsageError);
    expect(() => checkBaseUrl("http://127.0.0.1:3000")).not.toThrow();
  });
  it("config file values apply under flags and variables", () => {
    const dir = mkdtempSync(join(tmpdir(), "slk-config-"));
    writeFileSync(
      join(dir, "sl-conformance.config.json"),
      JSON.stringify({ "base-url": "http://cfg", profile: "readonly", budget: 3, only: ["a", "b"] }),
    );
    const p = buildProgram().parse(["node", "x", "--profile", "full"]);
    expect(applyConfig(p, undefined, dir)).toContain("sl-conformance.config.json");
    expect(settingsFrom(p.opts())).toMatchObject({
      baseUrl: "http://cfg",
      profile: "full",
      budgetUsd: 3,
      only: ["a", "b"],
    });
    writeFileSync(join(dir, "bad.json"), JSON.stringify({ "api-kee": "x" }));
    expect(() => applyConfig(buildProgram().parse(["node", "x"]), "bad.json", dir)).toThrow(
      /unknown setting "api-kee"/,
    );
  });
  it("--min-coverage fails below the share of operation × status pairs exercised", () => {
    const ledger = { summary: () => ({ pairs: 200, exercised: 90 }) } as unknown as RunReport["ledger"];
    expect(coverageVerdict({ ledger }, 50)?.ok).toBe(false);
    expect(coverageVerdict({ ledger }, 45)?.ok).toBe(true);
    expect(coverageVerdict({ ledger }, undefined)).toBeUndefined();
  });
  it("progress is quiet in CI and off a TTY, and says n/N, requests, elapsed and an estimate", () => {
    expect(progressEnabled(false, { CI: "true" }, true)).toBe(false);
    expect(progressEnabled(false, {}, false)).toBe(false);
    expect(progressEnabled(true, {}, true)).toBe(false);
    expect(progressEnabled(false, {}, true)).toBe(true);
    const line = progressText({
      done: 3,
      total: 10,
      current: "pagination-full-walk",
      requests: 42,
      elapsedMs: 9000,
      rate: 5,
      remaining: ["invalid-request-rejected"],
    });
    expect(line).toMatch(/^\[3\/10\] pagination-full-walk · 42 requests · 9s elapsed · ~(\d+m)?\d+s left at 5 req\/s$/);
  });
});

describe("weak spots, each against a server the old check let pass", () => {
  it("lists-never-leak-foreign fails when mention searches leak the foreign account's posts", async () => {
    const leak: Fault = {
      id: "mentions-leak-foreign",
      breaks: "mention searches are scoped to the account",
      expect: "lists-never-leak-foreign",
      response: async (q, res, s) => {
        if (q.method !== "POST" || q.url.pathname !== "/v1/mentions" || q.key !== s.keys.main || res.status !== 200)
          return res;
        const theirs = await s.forward({
          ...q,
          headers: { ...q.headers, "x-api-key": s.keys.foreign! },
          body: JSON.stringify({ limit: 5 }),
        });
        return json(res, { ...res.json, data: [...(theirs.json?.data ?? []), ...res.json.data] });
      },
    };
    const r = await behind(leak, { only: ["lists-never-leak-foreign"] });
    expect(result(r, "lists-never-leak-foreign").outcome).toBe("fail");
  }, 60_000);

  it("billing-refund-on-failure skips (not passes) when no run failed", async () => {
    const neverFails: Fault = {
      id: "failed-shown-completed",
      breaks: "(test) runs never show failed",
      expect: "billing-refund-on-failure",
      response: (_q, res) =>
        res.json?.data?.status?.type === "failed"
          ? json(res, {
              ...res.json,
              data: { ...res.json.data, status: { type: "completed", steps: res.json.data.status.steps ?? [] } },
            })
          : res,
    };
    const r = await behind(neverFails, { only: ["billing-refund-on-failure"] });
    const x = result(r, "billing-refund-on-failure");
    expect(x.outcome).toBe("skip");
    expect(x.skipReason).toMatch(/no failed run/);
  }, 60_000);

  it("rate-limit-burst-429 fails a deployment that lets twice its advertised rate through", async () => {
    const doubles: Fault = {
      id: "advertises-half",
      breaks: "RateLimit-Limit advertises the enforced rate",
      expect: "rate-limit-burst-429",
      response: (_q, res) =>
        "ratelimit-limit" in res.headers
          ? {
              ...(res.headers && res),
              headers: {
                ...res.headers,
                "ratelimit-limit": "5",
                "ratelimit-remaining": String(Math.min(4, Number(res.headers["ratelimit-remaining"]))),
              },
            }
          : res,
    };
    const r = await behind(doubles, { only: ["rate-limit-burst-429"] }, 10);
    const x = result(r, "rate-limit-burst-429");
    expect(x.outcome).toBe("fail");
    expect(x.failures.map((f) => f.title).join()).toMatch(/more requests succeeded/);
  }, 60_000);

  it("pagination checks fail non-200 pages and items without created_at instead of skipping them", async () => {
    const broken: Fault = {
      id: "pages-break",
      breaks: "(test) list pages answer 200 with created_at",
      expect: "pagination-end-cursor-null",
      response: (q, res) => {
        if (q.method !== "GET" || q.url.pathname !== "/v1/datasets") return res;
        if (q.url.searchParams.get("order") === "asc" && q.url.searchParams.get("limit") === "100")
          return json(res, { status: "server_error", error_code: "internal_error", detail: "x", transient: true }, 503);
        if (res.status === 200 && Array.isArray(res.json?.data))
          return json(res, { ...res.json, data: res.json.data.map(({ created_at: _c, ...rest }: any) => rest) });
        return res;
      },
    };
    const r = await behind(broken, { only: ["pagination-end-cursor-null", "pagination-default-order"] });
    expect(result(r, "pagination-end-cursor-null").outcome).toBe("fail");
    const order = result(r, "pagination-default-order");
    expect(order.outcome).toBe("fail");
    expect(order.failures.map((f) => f.title).join()).toMatch(/no readable created_at/);
  }, 60_000);

  it("lifecycle checks record the collection whose create was refused as not exercised", async () => {
    const refuse: Fault = {
      id: "cp-create-refused",
      breaks: "(test) custom parameter creates are refused",
      expect: "created-readable-at-once",
      request: (q) =>
        q.method === "POST" && q.url.pathname === "/v1/custom_parameters"
          ? {
              status: 409,
              headers: { "content-type": "application/json" },
              body: JSON.stringify({
                status: "client_error",
                error_code: "custom_parameter_limit_exceeded",
                detail: "limit",
                transient: false,
              }),
            }
          : q,
    };
    const r = await behind(refuse, {
      only: ["created-readable-at-once", "deleted-gone-everywhere"],
      operations: ["/v1/datasets", "/v1/custom_parameters", "/v1/prices", "/v1/me"],
    });
    for (const id of ["created-readable-at-once", "deleted-gone-everywhere"]) {
      const x = result(r, id);
      expect(x.unexercised?.join(), id).toMatch(/\/v1\/custom_parameters: create .*409/);
      expect(x.warnings.join(), id).not.toMatch(/custom_parameters/);
    }
  }, 60_000);

  it("a check that asserted nothing is skipped, never passed; a dead server is a usage error before any check", async () => {
    const noop = {
      ...allChecks.find((c) => c.id === "credit-prices-removed-404")!,
      id: "credit-prices-removed-404",
      run: async (ctx: any) => ctx.notExercised("nothing to do"),
    } as (typeof allChecks)[number];
    const ref = await startReference({ rateLimitPerSecond: 50 });
    try {
      const r = await runKit(settings(ref.baseUrl, { only: ["credit-prices-removed-404"] }), { checks: [noop] });
      expect(result(r, "credit-prices-removed-404")).toMatchObject({
        outcome: "skip",
        skipReason: "nothing exercised: nothing to do",
      });
    } finally {
      await ref.close();
    }
    await expect(runKit(settings("http://127.0.0.1:9", { only: ["malformed-json-rejected"] }))).rejects.toThrow(
      /does not answer/,
    );
    const dead = await runKit(
      settings("http://127.0.0.1:9", { only: ["malformed-json-rejected"], skipPreflight: true }),
    );
    expect(result(dead, "malformed-json-rejected").outcome).not.toBe("pass");
  }, 60_000);

  it("preflight refuses keys on the wrong accounts", async () => {
    const ref = await startReference({ rateLimitPerSecond: 50 });
    const k = demoKeys();
    try {
      await expect(runKit(settings(ref.baseUrl, { keys: { ...k, foreign: k.second } }))).rejects.toThrow(
        /--foreign-key belongs to the account under test/,
      );
      await expect(runKit(settings(ref.baseUrl, { keys: { ...k, second: k.foreign } }))).rejects.toThrow(
        /--second-seat-key belongs to account/,
      );
      await expect(runKit(settings(ref.baseUrl, { keys: { ...k, second: k.main } }))).rejects.toThrow(/same seat/);
      await expect(runKit(settings(ref.baseUrl, { keys: { ...k, main: "sl_test_nope" } }))).rejects.toThrow(
        /--api-key is not accepted/,
      );
    } finally {
      await ref.close();
    }
  }, 60_000);
});

describe("generic rules of section 2: sorts, filters and usage history are really applied", () => {
  const rewriteSearch = (drop: string): Fault => ({
    id: `mentions-ignore-${drop}`,
    breaks: `mention searches apply ${drop}`,
    expect: "mentions-sort-applied",
    request: (q) => {
      if (q.method !== "POST" || q.url.pathname !== "/v1/mentions" || !q.body) return q;
      const body = JSON.parse(q.body);
      delete body[drop];
      return { ...q, body: JSON.stringify(body) };
    },
  });
  it("prices-match-unit-ratios fails a price off its unit ratio (ratios from the group descriptors)", async () => {
    const off: Fault = {
      id: "profile-price-2-units",
      breaks: "audience_profile is 3 units",
      expect: "prices-match-unit-ratios",
      response: (q, res) =>
        q.url.pathname === "/v1/prices" && res.json?.data?.rate
          ? json(res, {
              ...res.json,
              data: {
                ...res.json.data,
                prices: { ...res.json.data.prices, audience_profile: Math.round(res.json.data.rate * 2 * 1e6) / 1e6 },
              },
            })
          : res,
    };
    const r = await behind(off, { only: ["prices-match-unit-ratios"] });
    expect(result(r, "prices-match-unit-ratios").failures.map((f) => f.title)).toEqual([
      "prices-match-unit-ratios: prices.audience_profile is not 3 × rate",
    ]);
  }, 60_000);
  it("mentions-sort-applied fails a server that ignores sort", async () => {
    const r = await behind(rewriteSearch("sort"), { only: ["mentions-sort-applied"] });
    expect(result(r, "mentions-sort-applied").outcome).toBe("fail");
  }, 60_000);
  it("mentions-filters-applied fails a server that ignores filters", async () => {
    const r = await behind(rewriteSearch("filters"), { only: ["mentions-filters-applied"] });
    const x = result(r, "mentions-filters-applied");
    expect(x.outcome).toBe("fail");
    expect(x.failures.length).toBeGreaterThanOrEqual(5);
  }, 60_000);
  it("usage-history-newest-first-shared fails an oldest-first history and one that differs per seat", async () => {
    const reversed: Fault = {
      id: "usage-asc",
      breaks: "usage history newest first",
      expect: "usage-history-newest-first-shared",
      response: (q, res) =>
        q.url.pathname === "/v1/me/usage_history" && Array.isArray(res.json?.data)
          ? json(res, { ...res.json, data: [...res.json.data].reverse() })
          : res,
    };
    const perSeat: Fault = {
      id: "usage-per-seat",
      breaks: "usage history shared by seats",
      expect: "usage-history-newest-first-shared",
      response: (q, res, s) =>
        q.url.pathname === "/v1/me/usage_history" && q.key === s.keys.second && Array.isArray(res.json?.data)
          ? json(res, { ...res.json, data: res.json.data.slice(1) })
          : res,
    };
    for (const f of [reversed, perSeat]) {
      // a charged run first, so the history holds rows to order
      const r = await behind(f, {
        only: ["billing-settlement-exact", "billing-refund-on-failure", "usage-history-newest-first-shared"],
      });
      expect(result(r, "usage-history-newest-first-shared").outcome, f.id).toBe("fail");
    }
  }, 90_000);
});

describe("a group the deployment does not serve", () => {
  it("is one served-groups finding, its checks skip with that reason, and the other groups' rules still pass", async () => {
    const notServed: Fault = {
      id: "no-audiences",
      breaks: "(test) the audience group is not deployed",
      expect: "served-groups",
      request: (q) =>
        q.url.pathname.startsWith("/v1/audience_")
          ? {
              status: 404,
              headers: { "content-type": "application/json" },
              body: JSON.stringify({
                status: "client_error",
                error_code: "not_found",
                detail: "No such route.",
                transient: false,
              }),
            }
          : q,
    };
    const r = await behind(notServed, {
      operations: ["/v1/datasets", "/v1/audience_datasets", "/v1/audience_profiles", "/v1/me", "/v1/prices"],
      numRuns: 1,
    });
    expect(r.results.filter((x) => x.outcome === "error").map((x) => `${x.id}: ${x.error?.split("\n")[0]}`)).toEqual(
      [],
    );
    // one line per missing group (D-KIT-SERVED-GROUPS), not dozens of failures from every rule that touches it
    expect(result(r, "served-groups").warnings.map((w) => w.split(";")[0])).toEqual([
      "group audiences not served: 404 (error_code not_found), as the unserved /v1/slk-unserved-route-probe on GET /v1/audience_datasets?limit=1",
      "group audience-profiles not served: 404 (error_code not_found), as the unserved /v1/slk-unserved-route-probe on POST /v1/audience_profiles",
    ]);
    expect(result(r, "audience-run-409-in-flight")).toMatchObject({
      outcome: "skip",
      skipReason: expect.stringMatching(/^group audiences not served/),
    });
    for (const x of r.results.filter((y) => y.outcome === "skip")) expect(x.skipReason, x.id).toBeTruthy();
    // the datasets group still passes its own rules, and generic rules no longer fail on the missing group
    for (const id of [
      "patch-semantics",
      "billing-settlement-exact",
      "run-state-machine",
      "created-readable-at-once",
      "pagination-full-walk",
      "documented-status-only",
    ])
      expect(result(r, id).outcome, id).toBe("pass");
    // without the preflight (old behaviour) the missing group shows up as failures of the specific rules
    const raw = await behind(notServed, {
      operations: ["/v1/datasets", "/v1/audience_datasets", "/v1/me"],
      only: ["created-readable-at-once"],
      skipPreflight: true,
    });
    expect(
      result(raw, "created-readable-at-once")
        .failures.map((f) => f.title)
        .join(),
    ).toMatch(/POST \/v1\/audience_datasets .* answered 404/);
  }, 120_000);
});

describe("reports", () => {
  it("summary.md is a Markdown table without code fences; report.html is self-contained with failures first", async () => {
    const fault: Fault = {
      id: "ok-string",
      breaks: "status success",
      expect: "status-string-mapping",
      response: (_q, res) =>
        res.status === 200 && res.json?.status === "success" ? json(res, { ...res.json, status: "ok" }) : res,
    };
    const r = await behind(fault, {
      only: ["credit-prices-removed-404", "pagination-garbage-cursor-400", "status-string-mapping"],
    });
    const md = summaryMarkdown(r);
    expect(md).not.toContain("```");
    expect(md).toMatch(/^\| Check \| Result \|/m);
    expect(md).toMatch(/^\|---\|/m);
    expect(md).toContain("## Failures");
    const html = htmlReport(r);
    expect(html).not.toMatch(/<script|<link|src="http/);
    expect(html.indexOf("status-string-mapping: HTTP 200")).toBeGreaterThan(0);
    expect(html.indexOf("status-string-mapping: HTTP 200")).toBeLessThan(html.indexOf("Every check"));
    expect(html).toContain('class="del">− documented');
    expect(html).toContain("curl -sS -i -X GET");
    const dir = mkdtempSync(join(tmpdir(), "slk-reports-"));
    const { writeReports } = await import("../src/reporters/files.ts");
    expect(writeReports(dir, r).map((f) => f.split("/").pop())).toEqual([
      "junit.xml",
      "coverage.json",
      "coverage.md",
      "results.json",
      "summary.md",
      "report.html",
    ]);
    expect(readFileSync(join(dir, "report.html"), "utf8")).toBe(html);
  }, 60_000);
});
