import type { MentionsMention } from "../../../generated/client/types.gen.ts";
import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { field, words } from "../grounding/facts.ts";
import { bodyOf, isObject } from "../typed.ts";
import { listItemsOf, seen } from "./support/util.ts";
import { countOf } from "./support/groups.ts";
import { parameterRun } from "./support/custom-parameters.ts";

/** The entry of one mention for the parameter, when it carries the seed's three fields (their values as sent). */
const entryOf = (m: unknown, cp: string): Record<string, unknown> | undefined => {
  const params = isObject(m) && isObject(m.parameters) ? m.parameters : undefined;
  const e = params?.[cp];
  return isObject(e) && "value" in e && "status" in e && "computed_at" in e ? e : undefined;
};

/**
 * Extracted values are read through POST /v1/mentions with parameter_ids,
 * under `parameters[<id>]` as `{value, status, computed_at}`: after a run
 * that processed mentions_done posts, at least that many mentions of its
 * dataset carry an entry. The seed does not show a value's `status` values:
 * that they are completed | failed (value null when failed), one completed
 * per processed post, and that mentions without parameter_ids carry an empty
 * map are the contract's decisions.
 */
export default defineCheck({
  id: "custom-parameter-values-via-parameter-ids",
  phase: "groups",
  rule: "After a completed custom parameter run, POST /v1/mentions {dataset_ids, parameter_ids: [id]} gives at least mentions_done mentions parameters[id] = {value, status, computed_at}; status is completed | failed with as many completed as mentions_done (D-PARAM-VALUE-STATUS); without parameter_ids parameters is {} (D-MENTION-PARAMETERS)",
  section:
    "Endpoints › Custom parameters (read extracted values via POST /v1/mentions with parameter_ids); Resources › Mention (parameters)",
  severity: "major",
  asserts: {
    values: seed(
      ["mention.parameters", "mentions.parameter-ids"],
      words("map parameter id to"),
      field("value"),
      field("status"),
      field("computed_at"),
      words("includes extracted custom values"),
    ),
    statuses: decided("D-PARAM-VALUE-STATUS"),
    unasked: decided("D-MENTION-PARAMETERS"),
  },
  requires: ["POST /v1/mentions", "POST /v1/custom_parameters/{parameter_id}/runs"],
  async run(ctx) {
    const r = await parameterRun(ctx);
    const processed = countOf(r.final?.mentions_done);
    if (processed === undefined || r.final?.status?.type === "failed")
      return ctx.notExercised(
        `the run ended ${JSON.stringify(r.final?.status ?? r.create.status)} with mentions_done ${JSON.stringify(r.final?.mentions_done)}`,
      );
    const withIds = await ctx.req({
      method: "POST",
      path: "/v1/mentions",
      body: { dataset_ids: [r.datasetId], parameter_ids: [r.cp], limit: 100 },
    });
    if (withIds.status !== 200 || bodyOf<{ has_next: unknown }>(withIds)?.has_next === true)
      return ctx.notExercised(
        `the dataset's mentions answered ${withIds.status} ${bodyOf<{ has_next: unknown }>(withIds)?.has_next === true ? "on more than one page" : ""}`.trimEnd(),
      );
    const ms = listItemsOf<MentionsMention>(withIds);
    const entries = ms.map((m) => entryOf(m, r.cp));
    const carrying = entries.filter((e) => e !== undefined);
    ctx.expect(
      carrying.length >= processed,
      {
        judges: "values",
        title: `${carrying.length} of ${ms.length} mentions carry parameters.${r.cp} {value, status, computed_at}; the run processed ${processed}`,
        received: seen(withIds),
        expected: {
          at_least: processed,
          parameters: { [r.cp]: { value: "…", status: "…", computed_at: "…" } },
        },
      },
      withIds,
    );
    const shaped = carrying.every(
      (e) =>
        (e.status === "completed" || e.status === "failed") &&
        Number.isInteger(e.computed_at) &&
        (e.status === "completed" || e.value === null),
    );
    const completed = carrying.filter((e) => e.status === "completed").length;
    ctx.expect(
      shaped && completed === processed,
      {
        judges: "statuses",
        title: `the values of parameter ${r.cp}: ${completed} completed for mentions_done ${processed}${shaped ? "" : ", some not completed | failed with integer computed_at"}`,
        received: carrying.slice(0, 5),
        expected: { status: "completed | failed (value null)", computed_at: "<unix seconds>", completed: processed },
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
        judges: "unasked",
        title: "mentions carry parameters that were not asked for",
        received: leaked.slice(0, 2).map((m) => m?.parameters),
        expected: {},
      },
      without,
    );
  },
});
