// Worker thread for the one piece of a pattern detection that cannot be cut
// into slices: ml-kmeans' fit (its k-means++ start alone is about 0.1 s on
// 1,000 x 256 points). Plain JavaScript, so the thread needs no TypeScript
// loader. Points arrive as one flat Float64Array per set (transferred, not
// copied); the answer is the cluster of every point, as in kmeans-thread.ts.
import { parentPort } from "node:worker_threads";
import { kmeans } from "ml-kmeans";

function rows(flat, dims) {
  const out = [];
  for (let i = 0; i < flat.length; i += dims) out.push(Array.from(flat.subarray(i, i + dims)));
  return out;
}

parentPort.on("message", ({ id, sample, points, dims, k, options }) => {
  try {
    const result = kmeans(rows(sample, dims), k, options);
    const clusters = points ? result.nearest(rows(points, dims)) : result.clusters;
    const assignment = Int32Array.from(clusters);
    parentPort.postMessage({ id, assignment }, [assignment.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
