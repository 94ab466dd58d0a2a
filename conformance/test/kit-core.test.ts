// The kit's checks against the reference behind a fault-injecting proxy: the
// weak spots of the old checks (each fault one the old check let pass, and the
// check now fails or skips), the generic rules that must really be applied
// (sorts, filters, usage history), a group the deployment does not serve, and
// the reports of such a run. The kit's data alone is tested in kit-data.test.ts.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { allChecks } from "../src/registry.ts";
import { runKit, type RunReport } from "../src/runner.ts";
import { htmlReport } from "../src/reporters/html.ts";
import { summaryMarkdown } from "../src/reporters/summary-md.ts";
import { json, startProxy, type Fault } from "../mutation/proxy.ts";
import { demoKeys, settings, startReference } from "./helpers.ts";
import type { Settings } from "../src/types.ts";

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
        // the end-cursor walk's second page (order=asc, a cursor): a server error
        if (q.url.searchParams.get("order") === "asc" && q.url.searchParams.has("cursor"))
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
  it("prices-match-unit-ratios fails a price off its unit ratio (the seed's ratios)", async () => {
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
