// Accounts, seats and API key records. Keys are only ever stored as SHA-256
// digests; the plaintext exists in the caller's hands and in the demo fixtures.
import { createHash } from "node:crypto";
import type { PlanName } from "./billing/plans.ts";

export interface Seat {
  user_id: string;
  email: string;
  name: string;
  created_at: number; // unix seconds
}

export interface Account {
  id: string;
  name: string;
  team_name: string;
  email: string;
  plan: PlanName;
  created_at: number; // unix seconds
  seats: Seat[];
  invitations: string[];
  /** Requests per second for this account's keys; falls back to the server default. */
  rate_limit?: number;
}

export interface ApiKeyRecord {
  digest: string; // hex SHA-256
  account_id: string;
  user_id: string;
}

export function sha256Hex(value: string): string {
  return createHash("sha256").update(value, "utf8").digest("hex");
}

export class AccountDirectory {
  private readonly accounts = new Map<string, Account>();
  private readonly keys = new Map<string, ApiKeyRecord>();
  /** OAuth access tokens accepted by the MCP endpoint, by digest; each acts as the seat that granted it. */
  private readonly bearerTokens = new Map<string, ApiKeyRecord>();

  addAccount(account: Account): void {
    this.accounts.set(account.id, account);
  }

  addKey(record: ApiKeyRecord): void {
    this.keys.set(record.digest, record);
  }

  addBearerToken(record: ApiKeyRecord): void {
    this.bearerTokens.set(record.digest, record);
  }

  account(id: string): Account | undefined {
    return this.accounts.get(id);
  }

  all(): Account[] {
    return [...this.accounts.values()];
  }

  /** Key and token digests (state snapshots; the plaintext is never held). */
  credentials(): { keys: ApiKeyRecord[]; bearerTokens: ApiKeyRecord[] } {
    return { keys: [...this.keys.values()], bearerTokens: [...this.bearerTokens.values()] };
  }

  /** Resolve a presented key by its SHA-256 digest. */
  resolve(presented: string): { account: Account; seat: Seat; digest: string } | undefined {
    return this.lookup(this.keys, presented);
  }

  /** Resolve an OAuth bearer token (MCP only) exactly like a key: by digest, to an account and seat. */
  resolveBearer(presented: string): { account: Account; seat: Seat; digest: string } | undefined {
    return this.lookup(this.bearerTokens, presented);
  }

  /**
   * Presented key -> its SHA-256 digest, for the keys seen most recently. A
   * digest is a pure function of the key, so remembering it changes no answer
   * (records, accounts and seats are still read fresh on every request); it
   * saves hashing the same key on every request (throughput). Only
   * keys that resolved are remembered, so guessed keys cannot evict real ones;
   * the map is bounded (the oldest entry leaves first) and lives in memory
   * only, never logged or exposed.
   */
  private readonly digests = new Map<string, string>();
  private static readonly DIGEST_MEMO_SIZE = 4096;

  private digestOf(presented: string): string {
    const known = this.digests.get(presented);
    if (known !== undefined) return known;
    return sha256Hex(presented);
  }

  private remember(presented: string, digest: string): void {
    if (this.digests.has(presented)) return;
    if (this.digests.size >= AccountDirectory.DIGEST_MEMO_SIZE) this.digests.delete(this.digests.keys().next().value!);
    this.digests.set(presented, digest);
  }

  private lookup(
    records: Map<string, ApiKeyRecord>,
    presented: string,
  ): { account: Account; seat: Seat; digest: string } | undefined {
    const digest = this.digestOf(presented);
    // The record is found by its digest, so it matches exactly; comparing the
    // two equal digests again in constant time would protect nothing (the
    // lookup hashes a SHA-256 digest, which reveals nothing about the key).
    const record = records.get(digest);
    if (!record) return undefined;
    const account = this.accounts.get(record.account_id);
    const seat = account?.seats.find((s) => s.user_id === record.user_id);
    if (!account || !seat) return undefined;
    this.remember(presented, digest);
    return { account, seat, digest };
  }
}
