import type fc from "fast-check";
import { sleep } from "../http.ts";
import type { RealSystem, RunModel } from "./model.ts";

/** Let the pipeline progress while some run is still active. */
export class WaitCommand implements fc.AsyncCommand<RunModel, RealSystem> {
  constructor(readonly ms: number) {}
  check(m: Readonly<RunModel>): boolean {
    return m.anyActive();
  }
  async run(): Promise<void> {
    await sleep(this.ms);
  }
  toString(): string {
    return `Wait(${this.ms}ms)`;
  }
}
