import { lenientWarning } from "../lenient.ts";
import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { field, words } from "../grounding/facts.ts";
import { dataOf, isObject } from "../typed.ts";
import { chargedPreview } from "./support/previews.ts";

/** The three lists of URLs that returned no data, as the seed names them. */
const LISTS = ["failed_to_retrieve_profiles", "non_existing_profiles", "private_profiles"] as const;

/**
 * The resolved profiles of a URL preview result: the seed does not name
 * their field, so the contract's `profiles`, else the one other array of
 * objects the result carries (undefined when there is none, or several).
 */
function resolvedProfiles(d: Record<string, unknown>): unknown[] | undefined {
  if (Array.isArray(d.profiles)) return d.profiles;
  const arrays = Object.entries(d).filter(
    ([k, v]) => !(LISTS as readonly string[]).includes(k) && Array.isArray(v) && v.length > 0 && v.every(isObject),
  );
  return arrays.length === 1 ? (arrays[0]![1] as unknown[]) : undefined;
}

/** The requested URL an item of a result list stands for: the string itself, or an object's `url` or other string naming one. */
function urlOf(item: unknown, requested: Set<string>): string | undefined {
  if (typeof item === "string") return item;
  if (!isObject(item)) return undefined;
  if (typeof item.url === "string") return item.url;
  return Object.values(item).find((v): v is string => typeof v === "string" && requested.has(v));
}

/**
 * A URL preview charges only the URLs that returned data (the resolved
 * profiles): private, non-existing and failed URLs are refunded. The count
 * comes from the deployment's own answer: its resolved profiles, or, when
 * their field cannot be found, the requested URLs not in the seed's three
 * lists. That every requested URL sits in exactly one list, and the lists'
 * item type, are D-PREVIEW-URL-LISTS', judged on their own; the profile
 * shape is lenient (D-PREVIEW-PROFILE).
 */
export default defineCheck({
  id: "preview-url-charge-per-returning-url",
  phase: "groups",
  rule: "A URL research preview answers the resolved profiles plus failed_to_retrieve_profiles, non_existing_profiles and private_profiles, and charges exactly the URLs that returned data × the preview_generation price (the others refunded); each requested URL is in exactly one of the lists (D-PREVIEW-URL-LISTS)",
  section:
    "Resources › Research preview (url result); Limits › Charges (2: URL preview charges URLs returning data; private, non-existing, failed refunded)",
  severity: "critical",
  asserts: {
    lists: seed(
      "preview.url-result",
      words("the resolved profiles plus"),
      field("failed_to_retrieve_profiles"),
      field("non_existing_profiles"),
      field("private_profiles"),
    ),
    charged: seed(
      "charges.url-preview",
      words("charge equals number of URLs returning data"),
      words("private, non-existing or failed URLs are refunded"),
    ),
    partition: decided("D-PREVIEW-URL-LISTS", field("failed_to_retrieve_profiles")),
  },
  requires: ["POST /v1/research_previews", "GET /v1/me", "GET /v1/prices"],
  async run(ctx) {
    const p = await chargedPreview(ctx, "url");
    const d = dataOf<Record<string, unknown>>(p.create) ?? {};
    // the contract's example lists its URLs (chargedPreview counted them already)
    const requested = new Set(p.body.source_urls!.map((u) => String(u.url)));
    const missing = LISTS.filter((l) => !(l in d));
    ctx.expect(
      missing.length === 0,
      {
        judges: "lists",
        title: `the URL preview result lacks ${missing.join(", ")}`,
        received: Object.keys(d),
        expected: [...LISTS],
      },
      p.create,
    );
    const notArrays = LISTS.filter((l) => l in d && !Array.isArray(d[l]));
    ctx.expect(
      notArrays.length === 0,
      {
        judges: "partition",
        title: `${notArrays.join(", ")} not an array of URLs`,
        received: Object.fromEntries(notArrays.map((l) => [l, d[l]])),
        expected: "arrays of the requested URL strings",
      },
      p.create,
    );
    // where the deployment put each requested URL
    const placed = new Map<string, string[]>();
    const put = (url: string | undefined, list: string) => {
      if (url !== undefined) placed.set(url, [...(placed.get(url) ?? []), list]);
    };
    let unreadable = 0;
    for (const l of LISTS)
      for (const item of Array.isArray(d[l]) ? (d[l] as unknown[]) : []) {
        const url = urlOf(item, requested);
        if (url === undefined) unreadable++;
        put(url, l);
      }
    const profiles = resolvedProfiles(d);
    const profileUrls = (profiles ?? []).map((pr) => urlOf(pr, requested));
    for (const url of profileUrls) put(url, "profiles");

    // the URLs that returned data, as the deployment answered them
    const refunded = [...requested].filter((u) => (placed.get(u) ?? []).some((l) => l !== "profiles")).length;
    const returning = profiles
      ? profileUrls.every((u) => u !== undefined)
        ? new Set(profileUrls.filter((u) => requested.has(u!))).size
        : profiles.length
      : unreadable === 0
        ? requested.size - refunded
        : undefined;
    if (returning === undefined)
      ctx.notExercised(
        "the resolved profiles have no field the kit can find and the lists hold items it cannot read as URLs: the URLs that returned data are unknown",
      );
    else {
      const expected = p.price.mul(returning);
      const charged = p.before.minus(p.after);
      ctx.expect(
        charged.equals(expected),
        {
          judges: "charged",
          title: `${returning} of ${requested.size} URLs returned data but $${charged.toFixed()} was charged`,
          received: charged.toFixed(),
          expected: `${returning} × ${p.price.toFixed()} = ${expected.toFixed()}`,
        },
        p.create,
      );
    }

    if (!profiles || unreadable > 0 || profileUrls.some((u) => u === undefined))
      ctx.notExercised("some items of the result could not be read as URLs: the partition of the URLs was not judged");
    else {
      const wrong = [...requested].filter((u) => (placed.get(u) ?? []).length !== 1);
      const stray = [...placed.keys()].filter((u) => !requested.has(u));
      ctx.expect(
        wrong.length === 0 && stray.length === 0,
        {
          judges: "partition",
          title: `${wrong.length} requested URL(s) not in exactly one list${stray.length ? `; ${stray.length} URL(s) never requested` : ""}`,
          received: Object.fromEntries(placed.entries()),
          expected: "each requested URL in exactly one of profiles / failed / non-existing / private",
        },
        p.create,
      );
    }
    for (const pr of profiles ?? [])
      if (!isObject(pr) || typeof pr.username !== "string" || typeof pr.is_verified !== "boolean")
        ctx.warn(lenientWarning("D-PREVIEW-PROFILE", JSON.stringify(pr).slice(0, 200)), p.create);
  },
});
