// A check is data: `defineCheck({...})` in a file of checks/ named after its
// id. The registry (registry.ts) finds every file there, so adding a check is
// one new file. Fields most checks share have defaults here; the order in
// which active checks run is data too (`phase`, then `after`), never a
// position in a list.
import type { ActiveCheck, DecisionRule, Match, Profile, ResponseCheck } from "./types.ts";

export { PHASES, type Phase } from "./types.ts";

/** Active checks run in the `standard` and `full` profiles unless they say otherwise. */
export const DEFAULT_ACTIVE_PROFILES: Profile[] = ["standard", "full"];
/** Response checks only read exchanges, so every profile has them unless they say otherwise. */
export const DEFAULT_RESPONSE_PROFILES: Profile[] = ["readonly", "standard", "full"];

type Defaulted = "kind" | "profiles" | "mock";
export type ActiveCheckSpec = Omit<ActiveCheck, Defaulted> & Partial<Pick<ActiveCheck, "profiles" | "mock">>;
export type ResponseCheckSpec = Omit<ResponseCheck, Defaulted> & Partial<Pick<ResponseCheck, "profiles" | "mock">>;

/** An active check (it sends requests: `run`) or a response check (it judges every recorded exchange: `inspect`). */
export function defineCheck(spec: ActiveCheckSpec): ActiveCheck;
export function defineCheck(spec: ResponseCheckSpec): ResponseCheck;
export function defineCheck(spec: ActiveCheckSpec | ResponseCheckSpec): ActiveCheck | ResponseCheck {
  if ("run" in spec) return { kind: "active", mock: false, profiles: DEFAULT_ACTIVE_PROFILES, ...spec };
  return { kind: "response", mock: false, profiles: DEFAULT_RESPONSE_PROFILES, ...spec };
}

/** A decision a check's findings enforce, for the failures `when` matches (no `when`: the check's default rule). */
export function decision(id: string, when?: Match): DecisionRule {
  return { decision: id, when };
}
