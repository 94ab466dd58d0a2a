// Scenario descriptors (after Spector): each resource group of the contract
// described once, as data. The hand-written part (`GroupSpec`) holds only what
// the contract cannot say (which state means "pending", the seed's unit ratio);
// everything the document knows (operations, 402/404 codes, status enums, step
// names, id prefixes) is derived from generated/openapi.json by `describe()`.
import type { Operation } from "../contract.ts";

/** Price categories of GET /v1/prices (seed › Limits › Charges). */
export type PriceCategory = "mention" | "audience_profile" | "post_processing" | "preview_generation";

export interface RunStates {
  pending: string;
  /** states between pending and the end (may be empty: custom parameter runs start `processing`) */
  working: string[];
  completed: string;
  failed: string;
}

export interface RunKindSpec {
  /** `POST …` that starts a run (its 202/201 answer carries the run or its id) */
  create: string;
  /** `GET …/{run_id}` polled until a terminal state */
  read?: string;
  list?: string;
  states: RunStates;
  /** where the state sits in a run body: `status.type` (envelope) or `status` (plain string) */
  statusAt: "status.type" | "status";
}

export interface GroupSpec {
  /** short id used in reports (`datasets`, `audiences`, …) */
  id: string;
  title: string;
  /** the seed section the group's rules come from */
  section: string;
  /** collection path (`/v1/datasets`) or the group's entry operation path */
  base: string;
  run?: RunKindSpec;
  /** what its chargeable work costs (seed › Charges: units per result at the account rate) */
  price?: { category: PriceCategory; units: number };
}

export interface RunKind extends RunKindSpec {
  createOp?: Operation;
  readOp?: Operation;
  listOp?: Operation;
  /** every state the contract allows (from the read response's status enum) */
  statusEnum: string[];
  terminal: string[];
  /** step names the contract lists, in order (empty when runs record no steps) */
  steps: string[];
  idPrefix?: string;
  /** the success status of the create (202 work that runs later, 201 created) */
  createStatus?: number;
  /** the 402 error_code of the create, from its documented 402 body */
  code402?: string;
  /** 404 codes the run read may answer */
  notFound: string[];
}

export interface Group extends GroupSpec {
  ops: {
    create?: Operation;
    read?: Operation;
    list?: Operation;
    update?: Operation;
    delete?: Operation;
    all: Operation[];
  };
  /** path parameter of the item (`dataset_id`) */
  itemParam?: string;
  idPrefix?: string;
  /** 404 error codes of the item read (documented 404 bodies) */
  notFound: string[];
  /** 402 error codes anywhere in the group */
  codes402: string[];
  run?: RunKind;
  /** whether the (possibly scoped) contract holds the group's operations */
  served: boolean;
}
