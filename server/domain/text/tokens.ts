/**
 * A token count estimated from text: four characters per token, the usual rule of thumb for English
 * and code. The offline model records it and the context builder budgets with it, so estimates and
 * budgets agree across the app. Not billing.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
