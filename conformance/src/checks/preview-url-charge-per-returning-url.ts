import { lenientWarning } from "../lenient.ts";
import { decision, defineCheck } from "../define-check.ts";
import { dataOf, isObject } from "../typed.ts";
import type { PreviewsUrlPreviewResult } from "../../../generated/client/types.gen.ts";
import { chargedPreview } from "./support/previews.ts";

const LISTS = ["failed_to_retrieve_profiles", "non_existing_profiles", "private_profiles"] as const;

/** A URL preview charges only the URLs that returned data; every requested URL lands in exactly one list. */
export default defineCheck({
  id: "preview-url-charge-per-returning-url",
  phase: "groups",
  rule: "A URL research preview puts each requested URL in exactly one of profiles, failed_to_retrieve_profiles, non_existing_profiles, private_profiles, and charges exactly profiles.length × the preview_generation price (the others refunded)",
  section: "Limits › Charges (2: URL preview charges URLs returning data; private, non-existing, failed refunded)",
  severity: "critical",
  rules: {
    seed: "URL preview: charge equals number of URLs returning data; private, non-existing or failed URLs are refunded.",
    decisions: [
      decision("D-PREVIEW-URL-LISTS", { title: /list|partition/ }),
      decision("D-PREVIEW-PROFILE", { title: /profile shape|profiles\[/ }),
    ],
  },
  decisions: ["D-PREVIEW-URL-CHARGE", "D-PREVIEW-URL-LISTS", "D-PREVIEW-PROFILE"],
  requires: ["POST /v1/research_previews", "GET /v1/me", "GET /v1/prices"],
  async run(ctx) {
    const p = await chargedPreview(ctx, "url");
    const d = dataOf<PreviewsUrlPreviewResult>(p.create);
    // the contract's example lists its URLs (chargedPreview counted them already)
    const requested: unknown[] = [...new Set(p.body.source_urls!.map((u) => u.url))];
    const placed = new Map<unknown, string[]>();
    const put = (url: unknown, list: string) => placed.set(url, [...(placed.get(url) ?? []), list]);
    const profiles: unknown[] = Array.isArray(d?.profiles) ? d.profiles : [];
    for (const pr of profiles) put(isObject(pr) ? pr.url : undefined, "profiles");
    for (const l of LISTS) {
      const urls: unknown = d?.[l];
      for (const u of Array.isArray(urls) ? (urls as unknown[]) : []) put(u, l);
    }
    const wrong = requested.filter((u) => (placed.get(u) ?? []).length !== 1);
    const stray = [...placed.keys()].filter((u) => !requested.includes(u));
    ctx.expect(
      wrong.length === 0 && stray.length === 0,
      {
        title: `${wrong.length} requested URL(s) not in exactly one list${stray.length ? `; ${stray.length} URL(s) never requested` : ""}`,
        received: Object.fromEntries([...placed.entries()]),
        expected: "each requested URL in exactly one of profiles / failed / non-existing / private",
      },
      p.create,
    );
    const expected = p.price.mul(profiles.length);
    ctx.expect(
      p.before.minus(p.after).equals(expected),
      {
        title: `${profiles.length} of ${requested.length} URLs returned data but $${p.before.minus(p.after).toFixed()} was charged`,
        received: p.before.minus(p.after).toFixed(),
        expected: expected.toFixed(),
      },
      p.create,
    );
    for (const pr of profiles)
      if (!isObject(pr) || typeof pr.username !== "string" || typeof pr.is_verified !== "boolean")
        ctx.warn(lenientWarning("D-PREVIEW-PROFILE", JSON.stringify(pr).slice(0, 200)), p.create);
  },
});
