import { lenientWarning } from "../lenient.ts";
import { decision, defineCheck } from "../define-check.ts";
import { dataOf, isObject, itemsOf } from "../typed.ts";
import type {
  MentionsMention,
  MentionsPatternAssignment,
  PatternsPatternItemDetail,
} from "../../../generated/client/types.gen.ts";
import { detection } from "./support/patterns.ts";

/** An assignment of a mention to a pattern item, as sent (a deployment may send anything in the list). */
function assignmentOf(a: unknown): Partial<Record<keyof MentionsPatternAssignment, unknown>> | undefined {
  return isObject(a) ? a : undefined;
}

/** A mention's pattern_assignments name items that exist and that list the mention among their posts. */
export default defineCheck({
  id: "pattern-assignments-real-items",
  phase: "groups",
  rule: "After a completed detection, every pattern_assignments entry of the dataset's mentions points at an item of the pattern (pattern_item_id, its title as name, confidence 0-1) whose expansion lists that mention, and every post an item lists carries the assignment",
  section: "Resources › Mention (pattern_assignments)",
  severity: "major",
  rules: {
    seed: "pattern_assignments | map to array of `{pattern_item_id, name, confidence}`",
    decisions: [decision("D-PATTERN-ASSIGNMENTS-KEY", { title: /D-PATTERN-ASSIGNMENTS-KEY/ })],
  },
  decisions: ["D-PATTERN-ASSIGNMENTS-KEY", "D-PATTERN-ASSIGNMENT-ONE"],
  requires: ["GET /v1/patterns/{pattern_id}/items/{item_id}", "POST /v1/mentions"],
  async run(ctx) {
    const d = await detection(ctx);
    const pattern = d.pattern;
    if (!pattern?.items?.length)
      return ctx.notExercised(`the detection ended ${d.final?.status?.type} without a pattern with items`);
    const members = new Map<unknown, Set<string>>();
    const titles = new Map<unknown, unknown>();
    for (const item of pattern.items) {
      titles.set(item.item_id, item.title);
      const ex = await ctx.req({
        method: "GET",
        path: `/v1/patterns/${encodeURIComponent(String(pattern.id))}/items/${encodeURIComponent(String(item.item_id))}`,
      });
      const refs = dataOf<PatternsPatternItemDetail>(ex)?.post_refs ?? [];
      members.set(item.item_id, new Set(refs.map((r) => `${r.source}:${r.id}`)));
    }
    const m = await ctx.req({ method: "POST", path: "/v1/mentions", body: { dataset_ids: [d.datasetId], limit: 100 } });
    const mentions = itemsOf<MentionsMention>(m);
    const assigned = new Map<unknown, Set<string>>();
    const otherKeys = new Set<string>();
    for (const x of mentions) {
      const key = `${x.source}:${x.id}`;
      const pa: unknown = x.pattern_assignments;
      if (!isObject(pa)) continue;
      for (const [patternKey, sentList] of Object.entries(pa)) {
        const list: unknown[] | undefined = Array.isArray(sentList) ? sentList : undefined;
        // D-PATTERN-ASSIGNMENTS-KEY (lenient on the key format, through the registry): an entry under another key whose
        // items are this pattern's is this pattern's, warned once per key and judged like the rest; otherwise it is
        // another pattern of the same dataset (and posts left without an assignment fail below)
        if (patternKey !== pattern.id) {
          if (!list?.some((a) => members.has(assignmentOf(a)?.pattern_item_id))) continue;
          if (!otherKeys.has(patternKey))
            ctx.warn(
              lenientWarning("D-PATTERN-ASSIGNMENTS-KEY", `keyed by ${patternKey}, not the pattern id ${pattern.id}`),
              m,
            );
          otherKeys.add(patternKey);
        }
        if (list && list.length !== 1)
          ctx.warn(
            lenientWarning("D-PATTERN-ASSIGNMENT-ONE", `${key} has ${list.length} assignments in one pattern`),
            m,
          );
        for (const sent of list ?? []) {
          const a = assignmentOf(sent);
          const real = members.has(a?.pattern_item_id);
          ctx.expect(
            !!a &&
              real &&
              members.get(a.pattern_item_id)!.has(key) &&
              a.name === titles.get(a.pattern_item_id) &&
              typeof a.confidence === "number" &&
              a.confidence >= 0 &&
              a.confidence <= 1,
            {
              title: `${key} is assigned to ${real ? "an item that does not list it" : `unknown item ${a?.pattern_item_id}`}`,
              received: sent,
              expected: { pattern_item_id: [...members.keys()], name: "the item's title", confidence: "0-1" },
            },
            m,
          );
          if (a && real)
            (assigned.get(a.pattern_item_id) ?? assigned.set(a.pattern_item_id, new Set()).get(a.pattern_item_id)!).add(
              key,
            );
        }
      }
    }
    const inDataset = new Set(mentions.map((x) => `${x.source}:${x.id}`));
    for (const [item, posts] of members) {
      const unassigned = [...posts].filter((k) => inDataset.has(k) && !assigned.get(item)?.has(k));
      ctx.expect(
        unassigned.length === 0,
        {
          title: `${unassigned.length} posts of item ${item} carry no assignment to it`,
          received: unassigned.slice(0, 5),
          expected: `pattern_assignments.${pattern.id} lists ${item}`,
        },
        m,
      );
    }
  },
});
