// Coverage ledger: operation × status × rule → pass / fail / not exercised.
import type { Contract } from "./contract.ts";

export interface LedgerRow {
  operation: string;
  operationId: string;
  status: string;
  rule: string;
  documented: boolean;
  pass: number;
  fail: number;
  verdict: "pass" | "fail" | "not exercised";
}

export class Ledger {
  private cells = new Map<string, { pass: number; fail: number }>();
  constructor(private contract: Contract) {}

  record(opKey: string, status: string, rule: string, ok: boolean): void {
    const k = `${opKey}\u0000${status}\u0000${rule}`;
    const c = this.cells.get(k) ?? { pass: 0, fail: 0 };
    if (ok) c.pass++;
    else c.fail++;
    this.cells.set(k, c);
  }

  rows(): LedgerRow[] {
    const rows: LedgerRow[] = [];
    const touched = new Set<string>();
    for (const [k, c] of this.cells) {
      const [operation, status, rule] = k.split("\u0000");
      touched.add(`${operation}\u0000${status}`);
      const op = this.contract.op(operation);
      rows.push({
        operation,
        operationId: op?.operationId ?? operation,
        status,
        rule,
        documented: !!op?.responses.has(status),
        pass: c.pass,
        fail: c.fail,
        verdict: c.fail > 0 ? "fail" : "pass",
      });
    }
    for (const { op, status } of this.contract.pairs()) {
      if (!touched.has(`${op.key}\u0000${status}`))
        rows.push({
          operation: op.key,
          operationId: op.operationId,
          status,
          rule: "-",
          documented: true,
          pass: 0,
          fail: 0,
          verdict: "not exercised",
        });
    }
    rows.sort(
      (a, b) =>
        a.operation.localeCompare(b.operation) || a.status.localeCompare(b.status) || a.rule.localeCompare(b.rule),
    );
    return rows;
  }

  summary(): { pairs: number; exercised: number } {
    const pairs = this.contract.pairs();
    const rows = this.rows();
    const exercised = pairs.filter(({ op, status }) =>
      rows.some((r) => r.operation === op.key && r.status === status && r.verdict !== "not exercised"),
    ).length;
    return { pairs: pairs.length, exercised };
  }

  markdown(): string {
    const { pairs, exercised } = this.summary();
    const lines = [
      "# Coverage ledger",
      "",
      `${exercised} of ${pairs} documented operation × status pairs exercised.`,
      "",
      "| Operation | operationId | Status | Rule | Verdict | Pass | Fail |",
      "|---|---|---|---|---|---|---|",
    ];
    for (const r of this.rows())
      lines.push(
        `| \`${r.operation}\` | ${r.operationId} | ${r.status}${r.documented ? "" : " (undocumented)"} | ${r.rule} | ${r.verdict} | ${r.pass} | ${r.fail} |`,
      );
    return lines.join("\n") + "\n";
  }
}
