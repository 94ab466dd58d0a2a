/** Thrown to skip the rest of a check (with the reason shown in the report). */
export class SkipError extends Error {}
