// Settings of the run that the CLI's own options add (-H). They belong in
// Settings (types.ts); declared here, as an augmentation of that interface,
// until types.ts takes them in (it is being reworked at the time of writing).
export {};

declare module "../types.ts" {
  interface Settings {
    /** -H 'Name: value': headers sent on every request, under the ones the kit and the checks set (http.ts) */
    headers?: Record<string, string>;
  }
}
