import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/**
 * Finds words a console page would show without going through the catalogue: JSX text, the
 * user-facing attributes (title, placeholder, aria-label, alt, label…) given as string literals,
 * and string or template literals placed straight into JSX children (`{busy ? 'Saving…' : …}`).
 * A literal passed to a call (`t('keys.title')`, `list(x, DASH)`) is the call's business, not a
 * shown string, so calls are not looked into.
 */

/** Attributes whose value a person reads or hears (props of our own components included). */
const SHOWN_ATTRIBUTES = new Set([
  'title',
  'placeholder',
  'aria-label',
  'aria-description',
  'alt',
  'label',
  'submitLabel',
  'what',
  'heading',
  'summary',
  'data-label',
]);

/** Words that are the same in every language: the product's and the providers' names, units, code. */
export const ALLOWED_TEXT = new Set([
  'Switchyard',
  'OpenAI',
  'Anthropic',
  'Gemini',
  'Claude',
  'Codex',
  'API',
  'JSON',
  'CSV',
  'USD',
  'ID',
  'URL',
  'SDK',
  'ms',
  's',
  'TTFB',
  'p50',
  'p95',
  'English',
  '简体中文',
  // Examples typed in the reader's own field: address ranges, a region, a project, a model map line.
  '203.0.113.0/24, 2001:db8::/32',
  'us-east-1',
  'my-gcp-project',
  'public-name=upstream-name',
  'https://…',
]);

/** Elements whose text is code or a literal the reader types, not prose. */
const CODE_ELEMENTS = new Set(['code', 'pre', 'kbd', 'samp']);

export interface Finding {
  file: string;
  line: number;
  text: string;
}

const hasWords = (text: string) => /[A-Za-z\u4e00-\u9fff]{2,}/.test(text) && !ALLOWED_TEXT.has(text.trim());

function enclosingElementName(node: ts.Node): string | null {
  const parent = node.parent;
  if (ts.isJsxElement(parent)) return parent.openingElement.tagName.getText();
  return null;
}

/** String or template literals reachable in an expression without entering a call or JSX. */
function shownLiterals(expression: ts.Node, found: (node: ts.Node, text: string) => void): void {
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) || ts.isJsxElement(node) || ts.isJsxSelfClosingElement(node) || ts.isJsxFragment(node)) return;
    if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) return;
    // The test of a condition (`kind === 'used'`) is compared, not shown.
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind !== ts.SyntaxKind.PlusToken &&
      node.operatorToken.kind !== ts.SyntaxKind.BarBarToken &&
      node.operatorToken.kind !== ts.SyntaxKind.QuestionQuestionToken &&
      node.operatorToken.kind !== ts.SyntaxKind.AmpersandAmpersandToken
    )
      return;
    if (ts.isConditionalExpression(node)) {
      visit(node.whenTrue);
      visit(node.whenFalse);
      return;
    }
    if (ts.isElementAccessExpression(node)) return;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      if (hasWords(node.text)) found(node, node.text);
      return;
    }
    if (ts.isTemplateExpression(node)) {
      const text = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' ');
      if (hasWords(text)) found(node, text);
      node.templateSpans.forEach((span) => visit(span.expression));
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(expression);
}

export function hardCodedStrings(file: string, root: string): Finding[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const findings: Finding[] = [];
  const report = (node: ts.Node, text: string) =>
    findings.push({ file: relative(root, file), line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: text.trim().replace(/\s+/g, ' ') });
  const visit = (node: ts.Node): void => {
    if (ts.isJsxText(node)) {
      const name = enclosingElementName(node);
      if (hasWords(node.text) && !(name && CODE_ELEMENTS.has(name))) report(node, node.text);
    } else if (ts.isJsxAttribute(node) && SHOWN_ATTRIBUTES.has(node.name.getText()) && node.initializer) {
      if (ts.isStringLiteral(node.initializer)) {
        if (hasWords(node.initializer.text)) report(node, node.initializer.text);
      } else if (ts.isJsxExpression(node.initializer) && node.initializer.expression) {
        shownLiterals(node.initializer.expression, report);
      }
    } else if (ts.isJsxExpression(node) && node.expression && !ts.isJsxAttribute(node.parent)) {
      const name = enclosingElementName(node);
      if (!(name && CODE_ELEMENTS.has(name))) shownLiterals(node.expression, report);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return findings;
}

export function tsxFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? tsxFiles(join(directory, entry.name)) : entry.name.endsWith('.tsx') ? [join(directory, entry.name)] : []))
    .sort();
}

/** Every literal key passed to t(...) in the console's source, with where it is used. */
export function usedKeys(files: string[]): Array<{ file: string; key: string }> {
  const used: Array<{ file: string; key: string }> = [];
  for (const file of files) {
    for (const match of readFileSync(file, 'utf8').matchAll(/\bt\(\s*'([^']+)'/g)) used.push({ file, key: match[1] ?? '' });
  }
  return used;
}
