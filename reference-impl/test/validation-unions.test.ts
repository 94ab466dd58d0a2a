// A body that matches no branch of a union (the research preview body, the
// tracking agent schedule) is reported through its closest branch, so `loc`
// names the broken field rather than stopping at the union (D-422: "loc must
// name the broken field").
import { describe, expect, it } from "vitest";
import { makeApp } from "./helpers.ts";

describe("validation of union bodies", () => {
  it("a prompt preview with an unknown time_filter names time_filter", async () => {
    const t = makeApp();
    const res = await t.call("POST", "/v1/research_previews", {
      body: { type: "prompt", sources: ["reddit"], search_query: "oat milk", time_filter: "last_decade" },
    });
    expect(res.status).toBe(422);
    expect(res.json.detail).toEqual([
      { loc: ["body", "time_filter"], msg: expect.stringContaining("past_week"), type: "invalid_value" },
    ]);
  });

  it("a url preview with no URLs names source_urls, not the prompt branch", async () => {
    const t = makeApp();
    const res = await t.call("POST", "/v1/research_previews", { body: { type: "url", source_urls: [] } });
    expect(res.status).toBe(422);
    expect(res.json.detail).toEqual([{ loc: ["body", "source_urls"], msg: expect.any(String), type: "too_small" }]);
  });

  it("every issue of a failed union still starts at the body", async () => {
    const t = makeApp();
    const res = await t.call("POST", "/v1/research_previews", { body: { type: "neither" } });
    expect(res.status).toBe(422);
    expect(res.json.detail.length).toBeGreaterThan(0);
    for (const issue of res.json.detail) {
      expect(issue.loc[0]).toBe("body");
      expect(issue.loc.length).toBeGreaterThan(1);
    }
  });
});
