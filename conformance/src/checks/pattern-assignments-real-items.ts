import { lenientWarning } from "../lenient.ts";
import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { field, words } from "../grounding/facts.ts";
import { isObject, itemsOf } from "../typed.ts";
import type { MentionsMention } from "../../../generated/client/types.gen.ts";
import { detection, itemIdOf, itemPath, itemsOfPattern, postRefsOf, titleOf } from "./support/patterns.ts";

/** A post reference's key, when it carries the seed's {source, id}. */
const refKey = (r: unknown) =>
  isObject(r) && typeof r.source === "string" && (typeof r.id === "string" || typeof r.id === "number")
    ? `${r.source}:${String(r.id)}`
    : undefined;

/** An assignment's pattern_item_id as the items' ids are compared (a string or a number, as text). */
const itemRef = (a: Record<string, unknown>) =>
  typeof a.pattern_item_id === "string" || typeof a.pattern_item_id === "number"
    ? String(a.pattern_item_id)
    : undefined;

/**
 * After a completed detection, a mention's pattern_assignments is a map to
 * arrays of {pattern_item_id, name, confidence} (the seed's shape), and an
 * entry that belongs to the detected pattern names one of its items. How the
 * map is keyed (D-PATTERN-ASSIGNMENTS-KEY, lenient), that the confidence is
 * 0-1, and that assignments and the items' post lists agree with each name
 * being the item's title (D-PATTERN-ASSIGNMENT-ONE) are the contract's
 * decisions, judged on their own. The pattern's id is the run's pattern_id
 * and an item's id its item_id; an item's title is read tolerantly (the
 * seed names a title, not its field).
 */
export default defineCheck({
  id: "pattern-assignments-real-items",
  phase: "groups",
  rule: "After a completed detection, every pattern_assignments entry of the dataset's mentions is {pattern_item_id, name, confidence} naming an item of the pattern; the item lists that mention and every post an item lists carries the assignment, named by the item's title with confidence 0-1 (D-PATTERN-ASSIGNMENT-ONE, D-PATTERN-ASSIGNMENTS-KEY)",
  section: "Resources › Mention (pattern_assignments)",
  severity: "major",
  asserts: {
    shape: seed(
      "mention.pattern-assignments",
      field("pattern_assignments"),
      words("map to array of"),
      field("pattern_item_id"),
      field("name"),
      field("confidence"),
    ),
    agrees: decided("D-PATTERN-ASSIGNMENT-ONE", field("pattern_item_id"), field("name")),
    keyed: decided("D-PATTERN-ASSIGNMENTS-KEY", field("confidence")),
  },
  requires: ["GET /v1/patterns/{pattern_id}/items/{item_id}", "POST /v1/mentions"],
  async run(ctx) {
    const d = await detection(ctx);
    const items = itemsOfPattern(d.pattern);
    if (!d.patternId || !items?.length)
      return ctx.notExercised(`the detection ended ${String(d.final?.status?.type)} without a pattern with items`);
    const patternId = d.patternId;
    const members = new Map<string, Set<string>>();
    const titles = new Map<string, string | undefined>();
    for (const item of items) {
      const id = itemIdOf(item);
      // an item without item_id is pattern-item-post-count's finding; its posts cannot be read here
      if (id === undefined) continue;
      titles.set(id, titleOf(item));
      const refs = postRefsOf(await ctx.req({ method: "GET", path: itemPath(patternId, id) }));
      if (refs) members.set(id, new Set(refs.map(refKey).filter((k): k is string => k !== undefined)));
    }
    if (members.size === 0) return ctx.notExercised("no item of the pattern could be expanded to its posts");
    const m = await ctx.req({ method: "POST", path: "/v1/mentions", body: { dataset_ids: [d.datasetId], limit: 100 } });
    const mentions = itemsOf<MentionsMention>(m);
    const assigned = new Map<string, Set<string>>();
    const otherKeys = new Set<string>();
    for (const x of mentions) {
      const key = `${x.source}:${x.id}`;
      const pa: unknown = x.pattern_assignments;
      if (pa === undefined || pa === null) continue;
      if (
        !ctx.expect(
          isObject(pa),
          {
            judges: "shape",
            title: `${key}'s pattern_assignments is not a map`,
            received: pa,
            expected: { "<pattern>": [{ pattern_item_id: "…", name: "…", confidence: "…" }] },
          },
          m,
        ) ||
        !isObject(pa)
      )
        continue;
      for (const [patternKey, sentList] of Object.entries(pa)) {
        const list: unknown[] | undefined = Array.isArray(sentList) ? sentList : undefined;
        // an entry under another key whose items are this pattern's is this pattern's (D-PATTERN-ASSIGNMENTS-KEY,
        // lenient on the key, warned once per key); otherwise it is another pattern of the same dataset
        const ours = list?.some((a) => isObject(a) && members.has(itemRef(a) ?? ""));
        if (patternKey !== patternId) {
          if (!ours) continue;
          if (!otherKeys.has(patternKey))
            ctx.warn(
              lenientWarning("D-PATTERN-ASSIGNMENTS-KEY", `keyed by ${patternKey}, not the pattern id ${patternId}`),
              m,
            );
          otherKeys.add(patternKey);
        }
        if (
          !ctx.expect(
            !!list,
            {
              judges: "shape",
              title: `${key}'s pattern_assignments.${patternKey} is not an array`,
              received: sentList,
              expected: [{ pattern_item_id: "…", name: "…", confidence: "…" }],
            },
            m,
          ) ||
          !list
        )
          continue;
        if (list.length !== 1)
          ctx.warn(
            lenientWarning("D-PATTERN-ASSIGNMENT-ONE", `${key} has ${list.length} assignments in one pattern`),
            m,
          );
        for (const sent of list) {
          const a = isObject(sent) ? sent : undefined;
          const item = a ? itemRef(a) : undefined;
          const real = item !== undefined && members.has(item);
          const fields = a && "pattern_item_id" in a && "name" in a && "confidence" in a;
          ctx.expect(
            !!fields && real,
            {
              judges: "shape",
              title: !fields
                ? `${key}'s assignment lacks pattern_item_id, name or confidence`
                : `${key} is assigned to unknown item ${String(a?.pattern_item_id)}`,
              received: sent,
              expected: { pattern_item_id: [...members.keys()], name: "…", confidence: "…" },
            },
            m,
          );
          if (!a || !real) continue;
          const title = titles.get(item);
          ctx.expect(
            members.get(item)!.has(key) && (title === undefined || a.name === title),
            {
              judges: "agrees",
              title: members.get(item)!.has(key)
                ? `${key}'s assignment to ${item} is named ${JSON.stringify(a.name)}, not the item's title`
                : `${key} is assigned to an item that does not list it`,
              received: sent,
              expected: { pattern_item_id: item, name: title ?? "the item's title", listed_by_the_item: true },
            },
            m,
          );
          ctx.expect(
            typeof a.confidence === "number" && a.confidence >= 0 && a.confidence <= 1,
            {
              judges: "keyed",
              title: `${key}'s assignment confidence is ${JSON.stringify(a.confidence)}`,
              received: sent,
              expected: { confidence: "0-1" },
            },
            m,
          );
          (assigned.get(item) ?? assigned.set(item, new Set()).get(item)!).add(key);
        }
      }
    }
    const inDataset = new Set(mentions.map((x) => `${x.source}:${x.id}`));
    for (const [item, posts] of members) {
      const unassigned = [...posts].filter((k) => inDataset.has(k) && !assigned.get(item)?.has(k));
      ctx.expect(
        unassigned.length === 0,
        {
          judges: "agrees",
          title: `${unassigned.length} posts of item ${item} carry no assignment to it`,
          received: unassigned.slice(0, 5),
          expected: `pattern_assignments.${patternId} lists ${item}`,
        },
        m,
      );
    }
  },
});
