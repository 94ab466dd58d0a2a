import { defineCheck } from "../define-check.ts";
import { seed } from "../grounding/assertions.ts";
import { byDefault } from "../grounding/facts.ts";
import { MENTION_POOL, mentionsAtLeast } from "./support/mentions.ts";
import { judgeDefaultPage } from "./support/pagination.ts";

const DEFAULT = 20;

/**
 * "omitted ≡ the seed's default" for the mention search: a search without
 * `limit` answers the page a search with limit=20 answers, the same mentions
 * and the same has_next. The account is filled past 20 mentions first (one
 * prompt run, once per kit run, when it holds fewer).
 */
export default defineCheck({
  id: "mentions-default-limit-equivalent",
  phase: "lists",
  rule: "POST /v1/mentions without limit answers the page a search with limit=20 answers: the same mentions, the same has_next",
  section: "Endpoints › Mentions (limit default 20); Limits › Concurrency and caps (page size defaults)",
  severity: "major",
  asserts: {
    default: seed("mentions.default-limit", byDefault(DEFAULT)),
  },
  profiles: ["readonly", "standard", "full"],
  requires: ["POST /v1/mentions"],
  async run(ctx) {
    await mentionsAtLeast(ctx, MENTION_POOL);
    await judgeDefaultPage(ctx, {
      judges: "default",
      what: "POST /v1/mentions",
      dflt: DEFAULT,
      omitted: () => ctx.req({ method: "POST", path: "/v1/mentions", body: {} }),
      explicit: () => ctx.req({ method: "POST", path: "/v1/mentions", body: { limit: DEFAULT } }),
    });
  },
});
