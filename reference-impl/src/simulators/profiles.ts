// Synthetic profile lookup for URL research previews. A URL is classified by
// the same rules the provider applies to a dataset run's URLs (wrong host:
// retrieval fails; a path saying deleted/missing/404: the profile does not
// exist; a path saying private: private), so one URL gets the same verdict
// in a preview and in a run. A resolvable URL must name a handle in the
// platform's profile path; its numbers are seeded by the handle, so the same
// profile always reads the same.
import { Random, seedOf } from "../platform/random.ts";
import { resolveUrl, type Source } from "./provider.ts";

export interface ResolvedProfile {
  source: Source;
  url: string;
  username: string;
  display_name: string | null;
  follower_count: number | null;
  is_verified: boolean;
}

export type ProfileOutcome =
  { kind: "profile"; profile: ResolvedProfile } | { kind: "failed" | "non_existing" | "private" };

// Audience sizes a profile is drawn from, per platform (log-uniform).
const FOLLOWERS: Record<Source, [number, number]> = {
  reddit: [10, 50_000],
  tiktok: [200, 5_000_000],
  youtube: [100, 8_000_000],
  instagram: [150, 3_000_000],
  linkedin: [50, 400_000],
};

/** Platforms mark large accounts as verified; the reference uses this threshold. */
const VERIFIED_FROM = 500_000;

// Path segments that are pages of the platform, not profile handles.
const RESERVED = new Set([
  "p",
  "reel",
  "reels",
  "explore",
  "stories",
  "watch",
  "shorts",
  "feed",
  "search",
  "video",
  "comments",
  "r",
]);

/** The handle a profile URL names, or null when the path names none. */
export function handleOf(source: Source, url: URL): string | null {
  const seg = url.pathname
    .split("/")
    .filter(Boolean)
    .map((s) => decodeURIComponent(s));
  const clean = (h: string | undefined) => {
    const v = h?.replace(/^@/, "").trim();
    return v && /^[\p{L}\p{N}._-]{1,64}$/u.test(v) && !RESERVED.has(v.toLowerCase()) ? v : null;
  };
  switch (source) {
    case "instagram":
      return seg.length >= 1 ? clean(seg[0]) : null;
    case "tiktok":
      return seg[0]?.startsWith("@") ? clean(seg[0]) : null;
    case "youtube":
      if (seg[0]?.startsWith("@")) return clean(seg[0]);
      return ["c", "user", "channel"].includes(seg[0] ?? "") ? clean(seg[1]) : null;
    case "reddit":
      return ["user", "u"].includes(seg[0] ?? "") ? clean(seg[1]) : null;
    case "linkedin":
      return ["in", "company"].includes(seg[0] ?? "") ? clean(seg[1]) : null;
  }
}

/** "jonas_brews.daily" -> "Jonas Brews Daily". */
function displayNameOf(handle: string): string {
  return handle
    .split(/[._-]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(" ");
}

/** Look up the profile a URL points at; deterministic. */
export function lookupProfile(source: Source, url: string): ProfileOutcome {
  const verdict = resolveUrl(source, url, undefined, 0);
  if (!verdict.ok) {
    if (verdict.reason === "private") return { kind: "private" };
    if (verdict.reason === "not_found") return { kind: "non_existing" };
    return { kind: "failed" };
  }
  const handle = handleOf(source, new URL(url));
  // A page of the right platform that names no profile cannot be read as one.
  if (!handle) return { kind: "failed" };
  // Handles that say they do not exist, as in the contract's example.
  if (/^(no_such|nonexistent|does_not_exist)/i.test(handle)) return { kind: "non_existing" };
  const r = new Random(seedOf("profile", source, handle.toLowerCase()));
  const followers = r.logInt(...FOLLOWERS[source]);
  return {
    kind: "profile",
    profile: {
      source,
      url,
      username: handle,
      display_name: displayNameOf(handle) || null,
      // Reddit shows karma, not a follower count.
      follower_count: source === "reddit" ? null : followers,
      is_verified: source !== "reddit" && followers >= VERIFIED_FROM,
    },
  };
}
