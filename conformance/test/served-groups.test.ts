// Served-groups preflight (D-KIT-SERVED-GROUPS): one probe per group; an unserved
// group is one finding and its checks skip with that reason; --require-groups
// makes it a failure. Unserved routes are imitated the ways real servers
// answer them: the reference's own unknown-route 404, an HTML 404 page, 405.
// A served group whose missing ids answer a 404 envelope with a code other
// than its own (the pattern reads answering `not_found`) stays served.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Contract } from "../src/contract.ts";
import { groupsOf } from "../src/groups/index.ts";
import { judgeProbe, probeFor } from "../src/preflight-groups.ts";
import { runKit } from "../src/runner.ts";
import { startProxy, type Fault, type ProxyRequest, type ProxyResponse, type RunningProxy } from "../mutation/proxy.ts";
import { demoKeys, settings, startReference, type Target } from "./helpers.ts";

/** Tracking agents answered like an unknown route, audiences by an HTML 404 page, chats by 405; patterns served with another 404 code. */
const unserved: Fault = {
  id: "three-groups-unserved",
  breaks: "serves every group",
  expect: "served-groups",
  request: (q): ProxyRequest | ProxyResponse => {
    if (q.url.pathname.startsWith("/v1/tracking_agents")) return { ...q, path: "/v1/no-such-route" + q.url.search };
    if (q.url.pathname.startsWith("/v1/audience_datasets"))
      return { status: 404, headers: { "content-type": "text/html" }, body: "<!doctype html><h1>Cannot GET</h1>" };
    if (q.url.pathname.startsWith("/v1/chats"))
      return { status: 405, headers: { "content-type": "text/plain", allow: "POST" }, body: "Method Not Allowed" };
    if (q.url.pathname.startsWith("/v1/patterns/slk-probe-missing"))
      return {
        status: 404,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          status: "client_error",
          error_code: "not_found",
          detail: "Not found.",
          transient: false,
        }),
      };
    return q;
  },
};

const only = ["tracking-agent-patch", "audience-run-409-in-flight", "chats-private-to-seat", "pagination-full-walk"];

describe("served-groups preflight", () => {
  let ref: Target;
  let proxy: RunningProxy;
  beforeAll(async () => {
    ref = await startReference({ rateLimitPerSecond: 100 });
    proxy = await startProxy(ref.baseUrl, unserved, demoKeys());
  });
  afterAll(async () => {
    await proxy?.close();
    await ref?.close();
  });

  it("finds every group of the reference served, with one probe per group", async () => {
    const r = await runKit(settings(ref.baseUrl, { operations: undefined, only: ["pagination-full-walk"] }));
    const row = r.results.find((x) => x.id === "served-groups")!;
    expect(row.outcome).toBe("pass");
    expect(row.warnings).toEqual([]);
    expect(r.servedGroups!.probes.map((p) => [p.group, p.served])).toEqual(
      groupsOf(Contract.load()).map((g) => [g.id, true]),
    );
    // one control request plus one per group
    expect(row.requests).toBe(r.servedGroups!.probes.length + 1);
  });

  it("reports each unserved group once and skips its checks with that reason", async () => {
    const r = await runKit(settings(proxy.baseUrl, { operations: undefined, only }));
    const row = r.results.find((x) => x.id === "served-groups")!;
    expect(row.outcome).toBe("pass");
    expect(row.warnings).toHaveLength(3);
    expect(row.warnings.join("\n")).toMatch(
      /group tracking-agents not served: 404 \(error_code not_found\), as the unserved \/v1\/slk-unserved-route-probe on GET \/v1\/tracking_agents\?limit=1/,
    );
    expect(row.warnings.join("\n")).toMatch(
      /group audiences not served: 404 \(no JSON body\) on GET \/v1\/audience_datasets\?limit=1/,
    );
    expect(row.warnings.join("\n")).toMatch(
      /group chats not served: 405 \(no JSON body\) on GET \/v1\/chats\/slk-probe-missing-0/,
    );
    const by = (id: string) => r.results.find((x) => x.id === id)!;
    expect(by("tracking-agent-patch")).toMatchObject({
      outcome: "skip",
      skipReason: expect.stringMatching(/^group tracking-agents not served/),
    });
    expect(by("audience-run-409-in-flight")).toMatchObject({
      outcome: "skip",
      skipReason: expect.stringMatching(/^group audiences not served/),
    });
    expect(by("chats-private-to-seat")).toMatchObject({
      outcome: "skip",
      skipReason: expect.stringMatching(/^group chats not served/),
    });
    expect(by("pagination-full-walk").outcome).toBe("pass");
    // a 404 in the error envelope on an id path, whatever its code: the patterns group stays served
    expect(r.servedGroups!.probes.find((p) => p.group === "patterns")).toMatchObject({
      served: true,
      status: 404,
      errorCode: "not_found",
    });
    // nothing of an unserved group is sent after the probe
    const after = r.exchanges.filter(
      (e) => e.check !== "(served-groups)" && /^\/v1\/(tracking_agents|audience_datasets|chats)/.test(e.path),
    );
    expect(after.map((e) => e.path)).toEqual([]);
  });

  it("--require-groups turns each unserved group into a failure", async () => {
    const r = await runKit(
      settings(proxy.baseUrl, { operations: undefined, only: ["pagination-full-walk"], requireGroups: true }),
    );
    const row = r.results.find((x) => x.id === "served-groups")!;
    expect(row.outcome).toBe("fail");
    expect(row.failures.map((f) => f.title.replace(/:.*? on /, ": … on "))).toEqual([
      "served-groups: … on GET /v1/audience_datasets?limit=1",
      "served-groups: … on GET /v1/tracking_agents?limit=1",
      "served-groups: … on GET /v1/chats/slk-probe-missing-0",
    ]);
  });
});

describe("served-groups rule (D-KIT-SERVED-GROUPS)", () => {
  const groups = groupsOf(Contract.load());
  const g = (id: string) => groups.find((x) => x.id === id)!;
  const control = { status: 404, errorCode: "not_found", json: true };

  it("probes a list first, a malformed POST next, else an item read", () => {
    expect(probeFor(g("datasets"))!.req).toMatchObject({ method: "GET", path: "/v1/datasets?limit=1" });
    expect(probeFor(g("patterns"))!.req).toMatchObject({ method: "GET", path: "/v1/patterns/slk-probe-missing-0" });
    // a path without an id tells a missing route (404) from a served one (400/422) whatever the codes
    expect(probeFor(g("pattern-detections"))!.req).toMatchObject({
      method: "POST",
      path: "/v1/pattern_detections",
      rawBody: "[]",
    });
    expect(probeFor(g("research-previews"))!.req).toMatchObject({
      method: "POST",
      path: "/v1/research_previews",
      rawBody: "[]",
    });
    expect(probeFor(g("ask"))!.req).toMatchObject({ method: "POST", path: "/v1/ask", rawBody: "[]" });
  });

  it("tells a missing route from a missing resource", () => {
    expect(
      judgeProbe(g("patterns"), "item", { status: 404, errorCode: "pattern_not_found", json: true }, control).served,
    ).toBe(true);
    // a 404 in the error envelope on an id path is the route answering: served, whatever its code
    expect(judgeProbe(g("patterns"), "item", { status: 404, errorCode: "not_found", json: true }, control).served).toBe(
      true,
    );
    expect(
      judgeProbe(g("patterns"), "item", { status: 404, errorCode: "bad_request", json: true }, control).served,
    ).toBe(true);
    // a 404 that is not the envelope (a server's own page, JSON without error_code): no such route
    expect(judgeProbe(g("patterns"), "item", { status: 404, errorCode: null, json: false }, control).served).toBe(
      false,
    );
    expect(judgeProbe(g("chats"), "item", { status: 404, errorCode: null, json: true }, control).served).toBe(false);
    expect(judgeProbe(g("chats"), "item", { status: 405, errorCode: null, json: false }, control).served).toBe(false);
    // without an id in the path a 404 is a missing route, unless it names the group's own resource
    expect(judgeProbe(g("datasets"), "list", { status: 404, errorCode: "not_found", json: true }, control).served).toBe(
      false,
    );
    expect(
      judgeProbe(g("pattern-detections"), "post", { status: 404, errorCode: "not_found", json: true }, control).served,
    ).toBe(false);
    expect(
      judgeProbe(g("pattern-detections"), "post", { status: 404, errorCode: "dataset_not_found", json: true }, control)
        .served,
    ).toBe(false);
    expect(
      judgeProbe(
        g("pattern-detections"),
        "post",
        { status: 404, errorCode: "pattern_detection_run_not_found", json: true },
        control,
      ).served,
    ).toBe(true);
    expect(judgeProbe(g("datasets"), "list", { status: 404, errorCode: null, json: false }, control).served).toBe(
      false,
    );
    expect(judgeProbe(g("datasets"), "list", { status: 501, errorCode: null, json: false }, control).served).toBe(
      false,
    );
    expect(judgeProbe(g("ask"), "post", { status: 422, errorCode: null, json: true }, control).served).toBe(true);
    expect(judgeProbe(g("ask"), "post", { status: 400, errorCode: "bad_request", json: true }, control).served).toBe(
      true,
    );
    expect(judgeProbe(g("ask"), "post", { status: 401, errorCode: "unauthorized", json: true }, control).served).toBe(
      true,
    );
    expect(
      judgeProbe(g("ask"), "post", { status: 500, errorCode: "internal_server_error", json: true }, control).served,
    ).toBe(true);
  });
});
