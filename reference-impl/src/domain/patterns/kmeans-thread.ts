// Client of kmeans-worker.mjs: one long-lived worker thread, started on first
// use and ref'd only while a fit is pending (an idle worker never keeps the
// process alive). A worker that fails is
// dropped and the next fit starts a new one. The in-thread answer is the same
// function of the same library with the same seed, so where the fit runs
// never changes the clusters.
import { Worker } from "node:worker_threads";
import { kmeans } from "ml-kmeans";

export interface KMeansOptions {
  initialization: "kmeans++";
  seed: number;
  maxIterations: number;
  tolerance: number;
}

export interface FitRequest {
  /** Points k-means is fitted on. */
  sample: number[][];
  /** Points to give their nearest centroid; none when they are the sample itself. */
  points: number[][] | null;
  k: number;
  options: KMeansOptions;
}

/** The cluster of every point (of `points`, or of `sample` when `points` is null), in this thread. */
export function fitInThread(req: FitRequest): number[] {
  const result = kmeans(req.sample, req.k, req.options);
  return req.points ? result.nearest(req.points) : result.clusters;
}

/** Flatten equal-length rows into one buffer that can be transferred to the worker. */
export function flatten(rowsOf: readonly number[][], dims: number): Float64Array {
  const flat = new Float64Array(rowsOf.length * dims);
  rowsOf.forEach((row, i) => flat.set(row, i * dims));
  return flat;
}

interface Pending {
  resolve: (assignment: number[]) => void;
  reject: (error: Error) => void;
}

let worker: Worker | undefined;
let nextId = 0;
const pending = new Map<number, Pending>();

function thread(): Worker {
  if (worker) return worker;
  // execArgv []: the worker is plain JavaScript and need not load the parent's TypeScript loader.
  const w = new Worker(new URL("./kmeans-worker.mjs", import.meta.url), { execArgv: [] });
  w.on("message", (m: { id: number; assignment?: Int32Array; error?: string }) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (pending.size === 0) w.unref();
    if (m.error !== undefined) p.reject(new Error(`k-means failed: ${m.error}`));
    else p.resolve(Array.from(m.assignment!));
  });
  const fail = (error: Error) => {
    if (worker === w) worker = undefined;
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };
  w.on("error", fail);
  w.on("exit", (code) => fail(new Error(`k-means worker exited with code ${code}`)));
  return (worker = w);
}

/**
 * The same answer as fitInThread, computed on the worker thread. `sample`
 * and `points` are flattened buffers (see flatten) so this thread does not
 * spend time copying rows.
 */
export function fitOffThread(
  sample: Float64Array,
  points: Float64Array | null,
  dims: number,
  k: number,
  options: KMeansOptions,
): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    // Ref'd only while a fit is pending: a script awaiting one must not exit, an idle worker must not hold the process.
    const w = thread();
    w.ref();
    const transfer = points ? [sample.buffer, points.buffer] : [sample.buffer];
    w.postMessage({ id, sample, points, dims, k, options }, transfer as ArrayBuffer[]);
  });
}
