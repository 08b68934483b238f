/** How the dashboard writes its figures; "—" when there is nothing to measure yet. */

export const percent = (value: number | null) => (value === null ? "—" : `${Math.round(value * 100)}%`);

export const usd = (value: number | null) =>
  value === null ? "—" : `$${value < 1 && value > 0 ? value.toFixed(4) : value.toFixed(2)}`;

export const decimal = (value: number | null) => (value === null ? "—" : value.toFixed(1));

export function duration(ms: number | null): string {
  if (ms === null) return "—";
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${(ms / 60_000).toFixed(1)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}
