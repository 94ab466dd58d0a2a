// Minimal typing of the parts of `autocannon` the benchmark uses (the package ships none).
declare module "autocannon" {
  interface Options {
    url: string;
    headers?: Record<string, string>;
    connections?: number;
    duration?: number;
  }
  interface Result {
    requests: { average: number; total: number };
    latency: { p50: number; average: number };
    non2xx: number;
    errors: number;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
