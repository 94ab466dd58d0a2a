// The seed's versioning rules ("Versioning" in the seed), as data the
// breaking-change gate applies on top of the diff library's classification.
// api-smart-diff decides whether a change is breaking for a client; this file
// decides what that means for this service: which /v1 groups are stable, which
// may change, and when a new value is only additive because the contract told
// clients to tolerate unknown ones.

export type Stability = "stable" | "may-change" | "mcp";

export interface Group {
  /** The group's name as the seed writes it. */
  name: string;
  stability: Stability;
  /** Path prefixes under /v1 that belong to the group. */
  prefixes: string[];
}

/**
 * Seed, Versioning 2: "Stable: datasets, mentions, audience datasets, audience
 * profiles. Newer groups (tracking agents, pattern detections, custom
 * parameters, ask, chats, me) may change."
 * Decision D-VERSION-GROUPS: paths the seed names in neither list (research
 * previews, prices) are held to rule 1 (no breaking change under /v1), so they
 * count as stable; `/v1/patterns/...` is read with pattern detections (the
 * seed documents both in one endpoint section) and `/v1/me/usage_history`
 * with me.
 */
export const GROUPS: Group[] = [
  { name: "datasets", stability: "stable", prefixes: ["/v1/datasets"] },
  { name: "mentions", stability: "stable", prefixes: ["/v1/mentions"] },
  { name: "audience datasets", stability: "stable", prefixes: ["/v1/audience_datasets"] },
  { name: "audience profiles", stability: "stable", prefixes: ["/v1/audience_profiles"] },
  { name: "research previews", stability: "stable", prefixes: ["/v1/research_previews"] },
  { name: "prices", stability: "stable", prefixes: ["/v1/prices"] },
  { name: "tracking agents", stability: "may-change", prefixes: ["/v1/tracking_agents"] },
  { name: "pattern detections", stability: "may-change", prefixes: ["/v1/pattern_detections", "/v1/patterns"] },
  { name: "custom parameters", stability: "may-change", prefixes: ["/v1/custom_parameters"] },
  { name: "ask", stability: "may-change", prefixes: ["/v1/ask"] },
  { name: "chats", stability: "may-change", prefixes: ["/v1/chats"] },
  { name: "me", stability: "may-change", prefixes: ["/v1/me"] },
];

/**
 * The MCP tool models live in components/schemas as `Mcp.*` and are reached
 * by no /v1 path. Decision D-VERSION-MCP: the seed's versioning rules speak of
 * /v1 only, so a change that reaches clients only through the tool surface is
 * a warning, never an error (an error_code removal stays an error everywhere).
 */
export const MCP_GROUP: Group = { name: "MCP tools", stability: "mcp", prefixes: [] };

/** A path outside every named group (a new prefix, or one outside /v1): held to rule 1 like a stable group. */
function unnamedGroup(path: string): Group {
  const top = path.split("/").slice(0, 3).join("/");
  return { name: `${top} (not named by the seed)`, stability: "stable", prefixes: [top] };
}

export function groupOf(path: string): Group {
  return GROUPS.find((g) => g.prefixes.some((p) => path === p || path.startsWith(p + "/"))) ?? unnamedGroup(path);
}

/**
 * Words by which a contract tells clients to tolerate values or keys they do
 * not know (seed, Versioning 3: "unknown category strings are tolerated by
 * clients"; the contract says "Treat unknown strings defensively" on the usage
 * category and "New categories ship as additive keys" on prices).
 * Decision D-VERSION-TOLERANCE: a new response enum value, or a new key of an
 * object that lists price categories, is additive only when the element, its
 * property or its schema says one of these; otherwise it is breaking.
 */
export const TOLERANCE =
  /unknown (strings?|values?|categor(y|ies)|keys?|codes?)[^.]*\b(tolerat|defensiv|ignor)|\b(tolerat\w*|ignor\w*|defensiv\w*)\b[^.]*\bunknown\b|treat unknown|open vocabulary|additive (keys|fields)/i;

/** Names of response properties whose keys are price categories (seed: Prices; Versioning 3). */
export const PRICE_CATEGORY_KEYS = ["prices", "prices_credits"];
