// Typed Hono environment: what middleware puts on the context.
import type { Account, Seat } from "./accounts.ts";

export interface Principal {
  account: Account;
  seat: Seat;
  /** SHA-256 hex digest of the presented key (never the key itself). */
  keyDigest: string;
}

/** Who is calling a domain service: the account (resource scope) and the acting seat. */
export type Caller = Pick<Principal, "account" | "seat">;

export interface AppEnv {
  Variables: {
    principal: Principal;
  };
}
