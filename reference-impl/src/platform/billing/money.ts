// Exact money. All amounts are decimal.js values with enough precision that
// unit prices times counts never round; JSON numbers are produced only at the
// edge from an exact six-decimal rendering.
import { Decimal as DecimalBase } from "decimal.js";

export const Money = DecimalBase.clone({ precision: 40, rounding: DecimalBase.ROUND_HALF_UP });
export type Money = InstanceType<typeof Money>;

export function money(value: string | number | Money): Money {
  return new Money(value);
}

export const ZERO = money(0);

/** `"35.600000"`: the decimal-string form used by 402 bodies. */
export function toDecimalString(m: Money): string {
  return m.toFixed(6);
}

/** A JSON number printed from the exact six-decimal string. */
export function toDollars(m: Money): number {
  return Number(m.toFixed(6));
}
