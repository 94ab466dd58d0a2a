// The request log's destination (throughput): lines reach the sink
// in order and whole, many lines per sink write, a lone line within
// BATCH_DELAY_MS, and nothing is lost on flush.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BatchedDestination, type LineSink } from "../src/platform/log-destination.ts";

function recordingSink() {
  const writes: string[] = [];
  let syncFlushes = 0;
  const sink: LineSink = {
    write: (data) => writes.push(data),
    flush: (cb) => cb?.(),
    flushSync: () => void syncFlushes++,
  };
  return { sink, writes, syncFlushes: () => syncFlushes };
}

const line = (i: number) => `{"level":30,"msg":"request","n":${i}}\n`;

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("BatchedDestination", () => {
  it("hands many lines over in few writes, in order and whole", () => {
    const { sink, writes } = recordingSink();
    const d = new BatchedDestination(sink);
    for (let i = 0; i < 1000; i++) d.write(line(i));
    vi.runAllTimers();
    expect(writes.join("")).toBe(Array.from({ length: 1000 }, (_, i) => line(i)).join(""));
    expect(writes.length).toBeLessThan(1000 / 10);
  });

  it("writes a lone line after the batch delay, not before", () => {
    const { sink, writes } = recordingSink();
    const d = new BatchedDestination(sink);
    d.write(line(1));
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(25);
    expect(writes).toEqual([line(1)]);
  });

  it("hands pending lines over on flush and on flushSync", () => {
    const a = recordingSink();
    const d = new BatchedDestination(a.sink);
    d.write(line(1));
    let flushed = false;
    d.flush(() => (flushed = true));
    expect(a.writes).toEqual([line(1)]);
    expect(flushed).toBe(true);
    d.write(line(2));
    d.flushSync();
    expect(a.writes).toEqual([line(1), line(2)]);
    expect(a.syncFlushes()).toBe(1);
    // Nothing pending: the exit hook has nothing to write.
    d.flushSync();
    expect(a.syncFlushes()).toBe(1);
  });
});
