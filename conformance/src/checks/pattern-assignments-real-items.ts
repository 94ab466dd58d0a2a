import { lenientWarning } from "../lenient.ts";
import { decision, defineCheck } from "../define-check.ts";
import { data, isObj } from "./support/util.ts";
import { detection } from "./support/patterns.ts";

/** A mention's pattern_assignments name items that exist and that list the mention among their posts. */
export default defineCheck({
  id: "pattern-assignments-real-items",
  phase: "groups",
  rule: "After a completed detection, every pattern_assignments entry of the dataset's mentions points at an item of the pattern (pattern_item_id, its title as name, confidence 0-1) whose expansion lists that mention, and every post an item lists carries the assignment",
  section: "Resources › Mention (pattern_assignments); decision D-PATTERN-ASSIGNMENTS-KEY",
  severity: "major",
  rules: {
    seed: "pattern_assignments | map to array of `{pattern_item_id, name, confidence}`",
    decisions: [decision("D-PATTERN-ASSIGNMENTS-KEY", { title: /D-PATTERN-ASSIGNMENTS-KEY/ })],
  },
  decisions: ["D-PATTERN-ASSIGNMENTS-KEY", "D-PATTERN-ASSIGNMENT-ONE"],
  requires: ["GET /v1/patterns/{pattern_id}/items/{item_id}", "POST /v1/mentions"],
  async run(ctx) {
    const d = await detection(ctx);
    if (!d.pattern?.items?.length)
      return ctx.notExercised(`the detection ended ${d.final?.status?.type} without a pattern with items`);
    const members = new Map<string, Set<string>>();
    const titles = new Map<string, string>();
    for (const item of d.pattern.items) {
      titles.set(item.item_id, item.title);
      const ex = await ctx.req({
        method: "GET",
        path: `/v1/patterns/${encodeURIComponent(d.pattern.id)}/items/${encodeURIComponent(item.item_id)}`,
      });
      members.set(item.item_id, new Set((data(ex)?.post_refs ?? []).map((r: any) => `${r.source}:${r.id}`)));
    }
    const m = await ctx.req({ method: "POST", path: "/v1/mentions", body: { dataset_ids: [d.datasetId], limit: 100 } });
    const mentions = Array.isArray(data(m)) ? data(m) : [];
    const assigned = new Map<string, Set<string>>();
    const otherKeys = new Set<string>();
    for (const x of mentions) {
      const key = `${x.source}:${x.id}`;
      const pa = x.pattern_assignments;
      if (!isObj(pa)) continue;
      for (const [patternKey, list] of Object.entries<any>(pa)) {
        // D-PATTERN-ASSIGNMENTS-KEY (lenient on the key format, through the registry): an entry under another key whose
        // items are this pattern's is this pattern's, warned once per key and judged like the rest; otherwise it is
        // another pattern of the same dataset (and posts left without an assignment fail below)
        if (patternKey !== d.pattern.id) {
          if (!(Array.isArray(list) && list.some((a: any) => members.has(a?.pattern_item_id)))) continue;
          if (!otherKeys.has(patternKey))
            ctx.warn(
              lenientWarning("D-PATTERN-ASSIGNMENTS-KEY", `keyed by ${patternKey}, not the pattern id ${d.pattern.id}`),
              m,
            );
          otherKeys.add(patternKey);
        }
        if (Array.isArray(list) && list.length !== 1)
          ctx.warn(
            lenientWarning("D-PATTERN-ASSIGNMENT-ONE", `${key} has ${list.length} assignments in one pattern`),
            m,
          );
        for (const a of Array.isArray(list) ? list : []) {
          const real = members.has(a?.pattern_item_id);
          ctx.expect(
            real &&
              members.get(a.pattern_item_id)!.has(key) &&
              a.name === titles.get(a.pattern_item_id) &&
              typeof a.confidence === "number" &&
              a.confidence >= 0 &&
              a.confidence <= 1,
            {
              title: `${key} is assigned to ${real ? "an item that does not list it" : `unknown item ${a?.pattern_item_id}`}`,
              received: a,
              expected: { pattern_item_id: [...members.keys()], name: "the item's title", confidence: "0-1" },
            },
            m,
          );
          if (real)
            (assigned.get(a.pattern_item_id) ?? assigned.set(a.pattern_item_id, new Set()).get(a.pattern_item_id)!).add(
              key,
            );
        }
      }
    }
    const inDataset = new Set(mentions.map((x: any) => `${x.source}:${x.id}`));
    for (const [item, posts] of members) {
      const unassigned = [...posts].filter((k) => inDataset.has(k) && !assigned.get(item)?.has(k));
      ctx.expect(
        unassigned.length === 0,
        {
          title: `${unassigned.length} posts of item ${item} carry no assignment to it`,
          received: unassigned.slice(0, 5),
          expected: `pattern_assignments.${d.pattern.id} lists ${item}`,
        },
        m,
      );
    }
  },
});
