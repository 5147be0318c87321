/** `<YYYYMMDD>-<counter>` (the public example is "20201218-013"). Pure; allocation lives in references.server.ts. */
export function referenceDay(date: Date): string {
  return date.toISOString().slice(0, 10).replace(/-/g, "");
}

export function formatReference(day: string, counter: number): string {
  return `${day}-${String(counter).padStart(3, "0")}`;
}
