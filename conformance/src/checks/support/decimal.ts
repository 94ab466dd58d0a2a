// Money as the kit reads it: a JSON number or a decimal string, exactly
// (billing.ts and groups.ts both read amounts; this module keeps them free of
// an import circle).
import { Decimal } from "decimal.js";

/** An amount sent as a finite JSON number or a decimal string; undefined for anything else. */
export function dec(v: unknown): Decimal | undefined {
  if (typeof v === "number" && Number.isFinite(v)) return new Decimal(String(v));
  if (typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v)) return new Decimal(v);
  return undefined;
}
