// Semantics of the profile filter union (D-AUD-PROFILE-FILTERS) on a stored
// profile. Groups are OR-ed, filters inside a group AND-ed.
import type { AudiencesProfileFilter } from "../../../../generated/client/types.gen.ts";
import { normalizeWords } from "../mentions/filters.ts";
import type { ProfileRow } from "./rows.ts";

export type ProfileFilter = AudiencesProfileFilter;

/** Text the keyword filter reads: bio, summary and username. */
export function searchableText(fields: { bio: string | null; summary: string; username: string }): string {
  return normalizeWords(`${fields.bio ?? ""} ${fields.summary} ${fields.username}`);
}

export function matchesProfileFilter(row: ProfileRow, f: ProfileFilter): boolean {
  const p = row.fields;
  switch (f.type) {
    case "keyword": {
      // Whole word, or a two-word phrase, like the mentions keyword filter.
      const hit = row.searchable.includes(normalizeWords(f.value));
      return f.operator === "is" ? hit : !hit;
    }
    case "source":
      return f.values.includes(p.source);
    case "country_code":
      return p.location_country !== null && f.values.includes(p.location_country);
    case "creator_tier":
      return f.values.some((v) => v.toLowerCase() === p.creator_tier);
    case "follower_count":
      return f.operator === "greater_than" ? p.follower_count > f.value : p.follower_count < f.value;
    case "is_verified":
      return p.is_verified === f.value;
  }
  return false;
}

export function matchesProfileGroups(
  row: ProfileRow,
  groups: readonly (readonly ProfileFilter[])[] | undefined,
): boolean {
  if (!groups || groups.length === 0) return true;
  return groups.some((group) => group.every((f) => matchesProfileFilter(row, f)));
}
