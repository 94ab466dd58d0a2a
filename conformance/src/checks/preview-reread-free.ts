import { defineCheck } from "../define-check.ts";
import { seed } from "../grounding/assertions.ts";
import { status, words } from "../grounding/facts.ts";
import type { Exchange } from "../http.ts";
import { bodyOf, dataOf, isObject } from "../typed.ts";
import type { PreviewsResearchPreview } from "../../../generated/client/types.gen.ts";
import { is2xx, seen } from "./support/util.ts";
import { canonical } from "./support/mcp.ts";
import { balanceOf } from "./support/groups.ts";
import { chargedPreview, PREVIEWS } from "./support/previews.ts";

/** `data` exactly as sent, whatever it is: two answers are compared whole. */
const sent = (ex: Exchange): unknown => bodyOf<{ data: unknown }>(ex)?.data;

/** The fields two answers both carry whose values differ (a field only one of them carries is not compared). */
function differing(a: unknown, b: unknown): string[] {
  if (!isObject(a) || !isObject(b)) return canonical(a) === canonical(b) ? [] : ["(data)"];
  return Object.keys(a).filter((k) => k in b && canonical(a[k]) !== canonical(b[k]));
}

/**
 * GET of a stored preview returns the stored result (no re-scrape), is free
 * and is scoped to the account: another account gets 404 (its code is
 * D-PREVIEW-404's, judged by the schema checks).
 */
export default defineCheck({
  id: "preview-reread-free",
  phase: "groups",
  rule: "GET /v1/research_previews/{preview_id} returns the stored result (every field it shares with the created preview unchanged, the sample included), unchanged on a second read, and charges nothing; another account gets 404",
  section: "Endpoints › Research previews (GET: stored sample, free, no re-scrape, scoped to the account)",
  severity: "major",
  asserts: {
    stored: seed(
      ["previews.create.persisted", "previews.read"],
      words("persisted and retrievable"),
      words("the stored sample"),
    ),
    noRescrape: seed("previews.read", words("no re-scrape")),
    free: seed("previews.read", words("free")),
    scoped: seed("previews.read", words("scoped to the account"), status(404), words("404 for unknown or foreign id")),
  },
  requires: ["POST /v1/research_previews", "GET /v1/research_previews/{preview_id}"],
  async run(ctx) {
    const p = await chargedPreview(ctx, "prompt");
    // chargedPreview went on only with a string preview_id
    const id = String(dataOf<PreviewsResearchPreview>(p.create)?.preview_id);
    const { balance: before } = await balanceOf(ctx);
    const a = await ctx.req({ method: "GET", path: `${PREVIEWS}/${encodeURIComponent(id)}` });
    const b = await ctx.req({ method: "GET", path: `${PREVIEWS}/${encodeURIComponent(id)}` });
    const { balance: after, ex: me } = await balanceOf(ctx);
    const created = sent(p.create);
    const reread = sent(a);
    const changed = differing(created, reread);
    // the sample itself must be there: a re-read without the created posts is not the stored sample
    if (isObject(created) && "posts" in created && !(isObject(reread) && "posts" in reread))
      changed.push("posts (missing)");
    ctx.expect(
      is2xx(a) && changed.length === 0,
      {
        judges: "stored",
        title: is2xx(a)
          ? `the re-read differs from the created preview in ${changed.join(", ")}`
          : `re-reading a stored preview answered ${a.status}`,
        received: seen(a),
        expected: { status: 200, data: created },
      },
      a,
    );
    ctx.expect(
      canonical(sent(b)) === canonical(sent(a)),
      { judges: "noRescrape", title: "two re-reads differ (re-scraped?)", received: sent(b), expected: sent(a) },
      b,
    );
    ctx.expect(
      after.equals(before),
      {
        judges: "free",
        title: "re-reading a preview changed the balance",
        received: after.toFixed(),
        expected: before.toFixed(),
      },
      me,
    );
    if (ctx.hasKey("foreign")) {
      const f = await ctx.req({ method: "GET", path: `${PREVIEWS}/${encodeURIComponent(id)}`, key: "foreign" });
      ctx.expect(
        f.status === 404,
        {
          judges: "scoped",
          title: `another account reading the preview answered ${f.status}`,
          received: seen(f),
          expected: { status: 404 },
        },
        f,
      );
    }
  },
});
