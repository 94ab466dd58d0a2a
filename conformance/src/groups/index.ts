// Every group of the contract, described once. Checks iterate `groupsOf(contract)`.
// One file per folder of spec/ (account, assistant, audiences, …); a file may
// describe several groups, whose ids are the URL resources reports name.
import type { Contract } from "../contract.ts";
import { account, prices } from "./account.ts";
import { ask, chats } from "./assistant.ts";
import { audienceProfiles, audiences } from "./audiences.ts";
import { customParameters } from "./custom-parameters.ts";
import { datasets } from "./datasets.ts";
import { mentions } from "./mentions.ts";
import { derivedMemo } from "./memo.ts";
import { patternDetections, patterns } from "./patterns.ts";
import { researchPreviews } from "./previews.ts";
import { trackingAgents } from "./tracking-agents.ts";
import { describe } from "./derive.ts";
import type { Group, GroupSpec } from "./types.ts";

export type { Group, GroupSpec, RunKind, RunStates, PriceCategory } from "./types.ts";

export const groupSpecs: GroupSpec[] = [
  datasets,
  audiences,
  audienceProfiles,
  customParameters,
  trackingAgents,
  patternDetections,
  patterns,
  researchPreviews,
  ask,
  chats,
  mentions,
  account,
  prices,
];

/** The groups the (scoped) contract serves, derived from it. */
export function groupsOf(contract: Contract): Group[] {
  return derivedMemo(contract, () => groupSpecs.map((s) => describe(s, contract)).filter((g) => g.served));
}

export function groupOf(contract: Contract, id: string): Group | undefined {
  return groupsOf(contract).find((g) => g.id === id);
}

/** The group an URL path belongs to (longest base first). */
export function groupForPath(contract: Contract, path: string): Group | undefined {
  const p = path.split("?")[0];
  return [...groupsOf(contract)]
    .sort((a, b) => b.base.length - a.base.length)
    .find((g) => p === g.base || p.startsWith(g.base + "/"));
}
