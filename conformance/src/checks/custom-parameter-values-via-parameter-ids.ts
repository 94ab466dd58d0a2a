import type { MentionsMention } from "../../../generated/client/types.gen.ts";
import { decision, defineCheck } from "../define-check.ts";
import { isObject } from "../typed.ts";
import { listItemsOf, seen } from "./support/util.ts";
import { parameterRun } from "./support/custom-parameters.ts";

/** Extracted values are read through POST /v1/mentions with parameter_ids, under `parameters[<id>]`; without parameter_ids the map is empty. */
export default defineCheck({
  id: "custom-parameter-values-via-parameter-ids",
  phase: "groups",
  rule: "After a completed custom parameter run, POST /v1/mentions {dataset_ids, parameter_ids: [id]} gives every mention parameters[id] = {value, status completed|failed, computed_at}, as many completed as mentions_done; without parameter_ids parameters is {}",
  section:
    "Endpoints › Custom parameters (read extracted values via POST /v1/mentions with parameter_ids); Resources › Mention (parameters)",
  severity: "major",
  rules: {
    seed: "Read extracted values afterwards via `POST /v1/mentions` with `parameter_ids`.",
    decisions: [
      decision("D-MENTION-PARAMETERS", { title: /custom_parameters|unasked|not asked/ }),
      decision("D-PARAM-VALUE-STATUS", { title: /status/ }),
    ],
  },
  decisions: ["D-MENTION-PARAMETERS", "D-PARAM-VALUE-STATUS"],
  requires: ["POST /v1/mentions", "POST /v1/custom_parameters/{parameter_id}/runs"],
  async run(ctx) {
    const r = await parameterRun(ctx);
    if (r.final?.status?.type !== "completed")
      return ctx.notExercised(`the run ended ${r.final?.status?.type ?? r.create.status}`);
    const withIds = await ctx.req({
      method: "POST",
      path: "/v1/mentions",
      body: { dataset_ids: [r.datasetId], parameter_ids: [r.cp], limit: 100 },
    });
    const ms = listItemsOf<MentionsMention>(withIds);
    const entries = ms.map((m) => m?.parameters?.[r.cp]);
    const shaped = entries.every(
      (e) =>
        isObject(e) &&
        (e.status === "completed" || e.status === "failed") &&
        "value" in e &&
        Number.isInteger(e.computed_at) &&
        (e.status === "completed" || e.value === null),
    );
    ctx.expect(
      withIds.status === 200 && ms.length > 0 && shaped,
      {
        title: `${entries.filter((e) => !isObject(e)).length} of ${ms.length} mentions lack parameters.${r.cp} or carry a malformed value`,
        received: seen(withIds),
        expected: {
          parameters: { [r.cp]: { value: "…", status: "completed | failed", computed_at: "<unix seconds>" } },
        },
      },
      withIds,
    );
    const completed = entries.filter((e) => e?.status === "completed").length;
    ctx.expect(
      completed === r.final.mentions_done,
      {
        title: `${completed} completed values, the run reports mentions_done ${r.final.mentions_done}`,
        received: completed,
        expected: r.final.mentions_done,
      },
      withIds,
    );
    const without = await ctx.req({
      method: "POST",
      path: "/v1/mentions",
      body: { dataset_ids: [r.datasetId], limit: 5 },
    });
    const leaked = listItemsOf<MentionsMention>(without).filter(
      (m) => !isObject(m?.parameters) || Object.keys(m.parameters).length > 0,
    );
    ctx.expect(
      without.status === 200 && leaked.length === 0,
      {
        title: "mentions carry parameters that were not asked for",
        received: leaked.slice(0, 2).map((m) => m?.parameters),
        expected: {},
      },
      without,
    );
  },
});
