// Success envelopes: `{status: "success", data}` and the list form with
// `has_next` and `cursor` (null on the last page).
export interface Page<T> {
  items: T[];
  hasNext: boolean;
  cursor: string | null;
}

export function ok<T>(data: T): { status: "success"; data: T } {
  return { status: "success", data };
}

export function list<T>(page: Page<T>): { status: "success"; data: T[]; has_next: boolean; cursor: string | null } {
  return { status: "success", data: page.items, has_next: page.hasNext, cursor: page.hasNext ? page.cursor : null };
}
