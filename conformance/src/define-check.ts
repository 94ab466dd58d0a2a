// A check is data: `defineCheck({...})` in a file of checks/ named after its
// id. The registry (registry.ts) finds every file there, so adding a check is
// one new file. Fields most checks share have defaults here; the order in
// which active checks run is data too (`phase`, then `after`), never a
// position in a list.
import { decisionsOfAsserts, type Asserts } from "./grounding/assertions.ts";
import type { ActiveCheck, CheckContext, InspectContext, Profile, ResponseCheck } from "./types.ts";

export { PHASES, type Phase } from "./types.ts";

/** Active checks run in the `standard` and `full` profiles unless they say otherwise. */
export const DEFAULT_ACTIVE_PROFILES: Profile[] = ["standard", "full"];
/** Response checks only read exchanges, so every profile has them unless they say otherwise. */
export const DEFAULT_RESPONSE_PROFILES: Profile[] = ["readonly", "standard", "full"];

type Defaulted = "kind" | "profiles" | "mock";
/** The names a check's failures may give as `judges`: its assertions' names (any string for a check that declares none). */
export type AssertName<A extends Asserts> = string extends keyof A ? string : Extract<keyof A, string>;
export type ActiveCheckSpec<A extends Asserts = Asserts> = Omit<ActiveCheck, Defaulted | "run" | "asserts"> &
  Partial<Pick<ActiveCheck, "profiles" | "mock">> & {
    asserts?: A;
    run(ctx: CheckContext<AssertName<A>>): Promise<void>;
  };
export type ResponseCheckSpec<A extends Asserts = Asserts> = Omit<ResponseCheck, Defaulted | "inspect" | "asserts"> &
  Partial<Pick<ResponseCheck, "profiles" | "mock">> & {
    asserts?: A;
    inspect(ex: Parameters<ResponseCheck["inspect"]>[0], ctx: InspectContext<AssertName<A>>): void;
  };

/**
 * An active check (it sends requests: `run`) or a response check (it judges
 * every recorded exchange: `inspect`). A check that declares `asserts` gets
 * its `decisions` list from them.
 */
export function defineCheck<const A extends Asserts = Asserts>(spec: ActiveCheckSpec<A>): ActiveCheck;
export function defineCheck<const A extends Asserts = Asserts>(spec: ResponseCheckSpec<A>): ResponseCheck;
export function defineCheck(spec: ActiveCheckSpec | ResponseCheckSpec): ActiveCheck | ResponseCheck {
  const derived = spec.asserts ? { decisions: decisionsOfAsserts(spec.asserts) } : {};
  if ("run" in spec)
    return { kind: "active", mock: false, profiles: DEFAULT_ACTIVE_PROFILES, ...spec, ...derived } as ActiveCheck;
  return { kind: "response", mock: false, profiles: DEFAULT_RESPONSE_PROFILES, ...spec, ...derived } as ResponseCheck;
}
