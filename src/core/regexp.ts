/** Text as a literal in a regular expression: every character with a meaning in a pattern escaped. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
