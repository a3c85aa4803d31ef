/**
 * Just enough Markdown reading for the README tests: fenced code blocks with the HTML comment that
 * marks a snippet, inline links outside code, and headings with the anchors GitHub gives them.
 */

/** What a README snippet is for, as its marker says (`<!-- snippet: run -->` on the line before the fence). */
export type SnippetKind = 'check' | 'run' | 'vitest';

const SNIPPET_KINDS: readonly SnippetKind[] = ['check', 'run', 'vitest'];

/** The parsed `<!-- snippet: KIND name="value" ... -->` comment. */
export interface SnippetMarker {
  kind: SnippetKind;
  /** Every `name="value"` (or `name=value`) attribute, in order; a name may repeat (`expect`). */
  attributes: Array<[name: string, value: string]>;
}

/** A fenced code block. */
export interface FencedBlock {
  /** The info string's first word (`ts`, `sh`, `text`, ...), empty when none. */
  lang: string;
  /** The block's text, without the fences. */
  code: string;
  /** 1-based line of the opening fence. */
  fenceLine: number;
  /** The marker on the line just before the fence, when there is one. */
  marker: SnippetMarker | undefined;
  /** A line that looks like a marker but does not parse (an unknown kind), with its text. */
  badMarker: string | undefined;
}

const MARKER = /^<!--\s*snippet:\s*(\S+)((?:\s+[a-z-]+=(?:"[^"]*"|\S+))*)\s*-->$/;
const ATTRIBUTE = /([a-z-]+)=(?:"([^"]*)"|(\S+))/g;

function parseMarker(line: string): { marker?: SnippetMarker; bad?: string } {
  const trimmed = line.trim();
  if (!trimmed.startsWith('<!--') || !/snippet/i.test(trimmed)) return {};
  const match = MARKER.exec(trimmed);
  const kind = match?.[1];
  if (match === null || !SNIPPET_KINDS.includes(kind as SnippetKind)) return { bad: trimmed };
  const attributes: Array<[string, string]> = [];
  for (const attribute of (match[2] ?? '').matchAll(ATTRIBUTE)) attributes.push([attribute[1] as string, attribute[2] ?? attribute[3] ?? '']);
  return { marker: { kind: kind as SnippetKind, attributes } };
}

/** Every fenced block (``` or ~~~, three or more), with the marker on the line before it. */
export function fencedBlocks(markdown: string): FencedBlock[] {
  const lines = markdown.split('\n');
  const blocks: FencedBlock[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)/.exec(lines[index] as string);
    if (open === null) continue;
    const fence = open[2] as string;
    const body: string[] = [];
    let end = index + 1;
    while (end < lines.length && !(lines[end] as string).trim().startsWith(fence)) body.push(lines[end++] as string);
    const { marker, bad } = index > 0 ? parseMarker(lines[index - 1] as string) : {};
    blocks.push({ lang: open[3] ?? '', code: body.join('\n'), fenceLine: index + 1, marker, badMarker: bad });
    index = end;
  }
  return blocks;
}

/** Snippet markers that are not directly followed by a fence (a marker lost from its block). */
export function strayMarkers(markdown: string): number[] {
  const lines = markdown.split('\n');
  const stray: number[] = [];
  lines.forEach((line, index) => {
    const { marker, bad } = parseMarker(line);
    if (marker === undefined && bad === undefined) return;
    if (!/^\s*(`{3,}|~{3,})/.test(lines[index + 1] ?? '')) stray.push(index + 1);
  });
  return stray;
}

/**
 * The Markdown with fenced blocks blanked out (line numbers kept), and inline code spans too unless
 * `keepCodeSpans` (a heading's code span is part of its text).
 */
function prose(markdown: string, keepCodeSpans = false): string[] {
  const lines = markdown.split('\n');
  let fence: string | undefined;
  return lines.map((line) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (marker !== undefined && marker.startsWith(fence)) fence = undefined;
      return '';
    }
    if (marker !== undefined) {
      fence = marker;
      return '';
    }
    return keepCodeSpans ? line : line.replace(/`[^`]*`/g, (span) => ' '.repeat(span.length));
  });
}

/** A link of the Markdown's prose. */
export interface MarkdownLink {
  /** What the link points at, as written. */
  target: string;
  /** 1-based line. */
  line: number;
}

/** Inline links `[text](target)` (images included) and reference definitions `[label]: target`. */
export function markdownLinks(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  // Link text may wrap onto the next line; a target never does.
  const lines = prose(markdown);
  lines.forEach((line, index) => {
    for (const match of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ target: match[1] as string, line: index + 1 });
    const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(line);
    if (definition !== null) links.push({ target: definition[1] as string, line: index + 1 });
    for (const match of line.matchAll(/href="([^"]+)"/g)) links.push({ target: match[1] as string, line: index + 1 });
  });
  return links;
}

/**
 * The anchors GitHub gives a document's headings: the heading's text lower-cased, stripped of
 * everything but letters, digits, spaces, hyphens and underscores, spaces turned into hyphens; a
 * repeated anchor gets `-1`, `-2`, ... (npm's page prefixes the same ids and resolves them too).
 */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of prose(markdown, true)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading === null) continue;
    const text = (heading[1] as string).replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '').replace(/`/g, '');
    const base = text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}
