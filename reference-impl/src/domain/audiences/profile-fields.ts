// Turn a person (what they wrote in the source, what the provider said about
// them as an author) into the fields of an audience profile. Text decides the
// descriptive fields (text-profile.ts). The counts a post cannot reveal
// (following, total content, a commenter's followers, account age, city) are
// filled by pure-rand seeded with (source, username), so the same person gets
// the same numbers in every run and every account.
import type { AudiencesAudienceProfile } from "../../../../generated/client/types.gen.ts";
import { Random, seedOf } from "../../platform/random.ts";
import { CITIES, LINK_IN_BIO } from "./lexicons.ts";
import type { Person } from "./people.ts";
import { analyseWritings, type TextProfile } from "./text-profile.ts";

export type ProfileFields = Omit<AudiencesAudienceProfile, "id" | "run_id" | "created_at">;

export function creatorTier(followers: number): string {
  if (followers < 10_000) return "nano";
  if (followers < 100_000) return "micro";
  if (followers < 500_000) return "mid";
  if (followers < 1_000_000) return "macro";
  return "mega";
}

export function postingCadence(postsPerWeek: number): string {
  if (postsPerWeek >= 5) return "daily";
  if (postsPerWeek >= 2) return "several times a week";
  if (postsPerWeek >= 0.7) return "weekly";
  if (postsPerWeek >= 0.2) return "monthly";
  return "occasional";
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;
const round2 = (x: number) => Math.round(x * 100) / 100;

function displayNameOf(person: Person): string {
  if (person.displayName) return person.displayName;
  // Commenter handles look like `sofia_1234`: the name part, capitalised.
  const name =
    person.username
      .replace(/[_\d]+$/, "")
      .replace(/[_.]+/g, " ")
      .trim() || person.username;
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** Authenticity from signals a fake audience distorts; the reason names the weakest one. */
function authenticity(
  creator: boolean,
  engagement: number,
  followers: number,
  following: number,
  text: TextProfile,
  duplicateShare: number,
): { score: number; reason: string } {
  const penalties: [number, string][] = [];
  if (!creator) {
    // A commenter's engagement is measured against the thread, not followers.
    if (engagement > 0.05)
      penalties.push([
        0.2,
        "Comments draw far more likes than the threads they answer usually give, a sign of boosted replies.",
      ]);
  } else if (engagement > 0.25)
    penalties.push([0.3, "Engagement far above what the follower count supports suggests bought interactions."]);
  else if (followers >= 1_000 && engagement < 0.002)
    penalties.push([0.25, "Very low engagement for the follower count suggests inactive or bought followers."]);
  if (followers >= 500 && following / followers > 1.5)
    penalties.push([0.2, "Follows far more accounts than follow back, a follow-for-follow pattern."]);
  if (duplicateShare > 0.3) penalties.push([0.2, "Repeats the same text across posts and comments."]);
  if (text.features.promo >= 0.75) penalties.push([0.1, "Most writing is promotional calls to action."]);
  const score = round2(Math.max(0.05, 0.95 - penalties.reduce((s, [p]) => s + p, 0)));
  const worst = [...penalties].sort((a, b) => b[0] - a[0])[0];
  return {
    score,
    reason: worst?.[1] ?? "Engagement in line with the follower count and original writing in posts and comments.",
  };
}

export function profileFields(person: Person): ProfileFields {
  const text = analyseWritings(person.writings);
  const r = new Random(seedOf("audience-profile", person.source, person.username.toLowerCase()));
  // Seeded: what a public post or comment does not reveal.
  const followers = person.followers ?? r.logInt(20, person.source === "reddit" ? 5_000 : 20_000);
  const following = r.logInt(30, 3_000);
  const ageDays = r.int(120, 3_000);
  const posts = person.writings.filter((w) => w.kind === "post");
  const comments = person.writings.filter((w) => w.kind === "comment");
  const contentCount = Math.max(posts.length, person.creator ? r.logInt(20, 2_500) : r.logInt(0, 120));
  const cities = person.creator && person.country ? CITIES[person.country] : undefined;
  const city = cities ? r.pick(cities) : null;

  // A creator's engagement is interactions per post relative to followers
  // (likes, comments, shares); a commenter's is the likes and replies their
  // comments drew relative to the views of the threads they answered, since
  // that audience, not their own followers, saw them.
  const engagement = person.creator
    ? round4(
        posts.reduce((s, w) => s + w.likes + w.replies + w.shares, 0) /
          Math.max(1, posts.length) /
          Math.max(1, followers),
      )
    : round4(
        comments.reduce((s, w) => s + w.likes + w.replies, 0) /
          Math.max(
            1,
            comments.reduce((s, w) => s + w.views, 0),
          ),
      );
  const distinct = new Set(person.writings.map((w) => w.text.toLowerCase())).size;
  const duplicateShare = person.writings.length ? 1 - distinct / person.writings.length : 0;
  const auth = authenticity(person.creator, engagement, followers, following, text, duplicateShare);
  const tier = creatorTier(followers);
  const reach = Math.min(1, Math.log10(Math.max(10, followers)) / 7);
  const score = round2(
    0.35 * reach +
      0.25 * Math.min(1, engagement / 0.08) +
      0.25 * auth.score +
      0.15 * Math.min(1, person.writings.length / 3),
  );

  const videos = posts.filter((p) => p.media.includes("video")).length;
  const images = posts.filter((p) => p.media.includes("image")).length;
  const vertical = posts.filter((p) => p.vertical).length;
  const mood = text.features.comparative > 0.1 ? "upbeat" : text.features.comparative < -0.1 ? "moody" : "plain";
  const aesthetic = !posts.length
    ? `${mood} text-only comments`
    : videos >= images
      ? `${mood} ${vertical * 2 >= posts.length ? "vertical short-form video" : "landscape video"}`
      : images
        ? `${mood} photo posts`
        : `${mood} text posts`;

  const occupation = person.headline
    ? person.headline.toLowerCase()
    : person.creator
      ? text.promotional
        ? "content creator"
        : "independent reviewer"
      : "consumer";
  const name = displayNameOf(person);
  const link =
    person.creator && person.writings.some((w) => LINK_IN_BIO.test(w.text))
      ? `https://links.example.com/${person.username}`
      : null;
  const niche = text.niches.length
    ? text.niches
    : text.interests.length
      ? text.interests.slice(0, 1)
      : ["general interest"];
  const brandText = text.brands.length ? `; mentions ${text.brands.slice(0, 3).join(", ")}` : "";
  const summary =
    `${name} is a ${tier} ${person.source} ${person.creator ? "creator" : "commenter"} writing about ${niche.join(" and ")} in a ${text.tone} tone` +
    `${brandText} (${posts.length} post${posts.length === 1 ? "" : "s"} and ${comments.length} comment${comments.length === 1 ? "" : "s"} in the source).`;
  const lastMs = Math.max(...person.writings.map((w) => w.created_ms));

  return {
    source: person.source,
    username: person.username,
    display_name: name,
    bio: person.headline ? `${person.headline}. ${niche[0]![0]!.toUpperCase()}${niche[0]!.slice(1)}.` : null,
    external_link: link,
    is_verified: person.source !== "reddit" && followers >= 250_000,
    follower_count: followers,
    following_count: following,
    content_count: contentCount,
    engagement_rate: engagement,
    authenticity_score: auth.score,
    score,
    posting_cadence: postingCadence(contentCount / (ageDays / 7)),
    creator_tier: tier,
    location_country: person.creator ? person.country : null,
    location_city: city,
    primary_language: text.language,
    authenticity_reason: auth.reason,
    aesthetic,
    communication_tone: text.tone,
    occupation,
    industry: text.industry,
    summary,
    content_niche: niche,
    interest_clusters: text.interests,
    brand_affinities: text.brands,
    ocean: text.ocean,
    platform_metadata: {
      role: person.creator ? "creator" : "commenter",
      posts_in_source: posts.length,
      comments_in_source: comments.length,
      last_seen_at: Math.floor(lastMs / 1000),
      account_age_days: ageDays,
      ...(person.source === "tiktok" || person.source === "instagram" ? { is_business_account: text.promotional } : {}),
    },
    avatar: person.avatarUrl
      ? { type: "image", version_list: [{ url: person.avatarUrl, width: 400, height: 400 }], description: null }
      : null,
  };
}
