// The MCP tool surface comes out of the same generator as REST: fifteen tools,
// each with generated argument and result validators that enforce the seed's
// bounds, and no HTTP operation added for them.
import { describe, expect, it } from "vitest";
import * as z from "../../generated/client/zod.gen.js";

const seedTools = [
  "svc__ask",
  "svc__get_message",
  "svc__render",
  "svc__list_datasets",
  "svc__get_dataset",
  "svc__get_dataset_run",
  "svc__list_audience_datasets",
  "svc__get_audience_dataset",
  "svc__get_audience_dataset_run",
  "svc__list_audience_profiles",
  "svc__list_mentions",
  "svc__get_pattern_detection_run",
  "svc__list_tracking_agents",
  "svc__get_tracking_agent",
  "svc__get_me",
];

describe("MCP tool catalogue", () => {
  const catalogue = z.zMcpToolCatalogue.shape as Record<string, any>;

  it("lists exactly the seed's fifteen tools", () => {
    expect(Object.keys(catalogue).sort()).toEqual([...seedTools].sort());
  });

  it.each(seedTools)("%s has generated args and result schemas", (tool) => {
    const entry = catalogue[tool].shape;
    expect(entry.name.options).toEqual([tool]);
    expect(typeof entry.args.safeParse).toBe("function");
    expect(typeof entry.result.safeParse).toBe("function");
  });

  it("bounds ask: prompt required and non-empty, at most 50 post_refs", () => {
    const ref = (i: number) => ({ id: `t3_${i}`, source: "reddit" });
    expect(z.zMcpAskArgs.safeParse({ prompt: "Summarise complaints" }).success).toBe(true);
    expect(z.zMcpAskArgs.safeParse({ prompt: "" }).success).toBe(false);
    expect(z.zMcpAskArgs.safeParse({}).success).toBe(false);
    expect(
      z.zMcpAskArgs.safeParse({ prompt: "x", post_refs: Array.from({ length: 51 }, (_, i) => ref(i)) }).success,
    ).toBe(false);
  });

  it("get_message needs both ids; blocks are text or openui", () => {
    expect(z.zMcpGetMessageArgs.safeParse({ chat_id: "ch_1" }).success).toBe(false);
    expect(z.zMcpBlock.safeParse({ block_id: "b1", type: "text", render: false, text: "Hi" }).success).toBe(true);
    expect(z.zMcpBlock.safeParse({ block_id: "b1", type: "html", render: false }).success).toBe(false);
  });

  it("tool errors carry code, message and a REST status", () => {
    expect(
      z.zMcpToolError.safeParse({ error: { code: "dataset_not_found", message: "No such dataset", status: 404 } })
        .success,
    ).toBe(true);
    expect(
      z.zMcpToolError.safeParse({ error: { code: "dataset_not_found", message: "No such dataset" } }).success,
    ).toBe(false);
  });
});
