import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const generatedDir = join(root, 'src/generated') + sep;

/** The package's entry points (package.json `exports`), as source files. */
const ENTRY_POINTS = ['src/index.ts', 'src/testing/index.ts', 'src/testing/msw.ts', 'src/redis/index.ts', 'src/scheduling/index.ts', 'src/webhooks/index.ts'];
const LEAKY_FIXTURE = 'test/types/fixtures/leaky-entry.ts';

function createProgram(entries: string[]): ts.Program {
  const configPath = join(root, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, (path) => ts.sys.readFile(path));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  return ts.createProgram(entries.map((entry) => join(root, entry)), { ...parsed.options, noEmit: true });
}

const isOurs = (file: string) => file.startsWith(root + sep) && !file.includes(`${sep}node_modules${sep}`);
const isPrivate = (node: ts.Node) =>
  (ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.PrivateKeyword)) ||
  ('name' in node && node.name !== undefined && ts.isPrivateIdentifier(node.name as ts.Node));

/**
 * Every place where an entry point's public surface (what its `.d.ts` shows and what a hover
 * shows) names a type declared in src/generated: exported names, the types their declarations
 * refer to (followed through our own aliases and interfaces), and inferred types of declarations
 * written without an annotation. Function bodies and private members are not public.
 */
function codegenNamesInPublicSurface(program: ts.Program, entries: string[]): string[] {
  const checker = program.getTypeChecker();
  const generatedFile = program.getSourceFile(join(root, 'src/generated/graphql.ts'));
  const generatedSymbol = generatedFile === undefined ? undefined : checker.getSymbolAtLocation(generatedFile);
  const generatedNames = new Set(['Exact', 'Incremental', 'Scalars', 'InputMaybe', 'Maybe', ...(generatedSymbol ? checker.getExportsOfModule(generatedSymbol).map((symbol) => symbol.name) : [])]);
  const namePattern = new RegExp(`\\b(${[...generatedNames].join('|')})\\b`);
  const found = new Set<string>();
  const visited = new Set<ts.Symbol>();

  const visitSymbol = (start: ts.Symbol, via: string): void => {
    const symbol = start.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(start) : start;
    if (visited.has(symbol)) return;
    visited.add(symbol);
    for (const declaration of symbol.declarations ?? []) {
      const file = declaration.getSourceFile().fileName;
      if (file.startsWith(generatedDir)) found.add(`${via} -> ${symbol.name} (src/generated)`);
      else if (isOurs(file)) walk(declaration, `${via} > ${symbol.name}`);
    }
  };

  const visitName = (name: ts.Node, via: string): void => {
    const target = ts.isQualifiedName(name) ? name.right : ts.isPropertyAccessExpression(name) ? name.name : name;
    const symbol = checker.getSymbolAtLocation(target);
    if (symbol !== undefined) visitSymbol(symbol, via);
  };

  const checkInferred = (declaration: ts.Node, name: ts.Node, via: string): void => {
    const type = checker.getTypeAtLocation(name);
    const text = checker.typeToString(type, declaration, ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope);
    const match = namePattern.exec(text);
    if (match !== null) found.add(`${via} -> ${match[1]} (inferred type)`);
  };

  const walk = (node: ts.Node, via: string): void => {
    if (isPrivate(node)) return;
    if (ts.isTypeReferenceNode(node)) visitName(node.typeName, via);
    if (ts.isExpressionWithTypeArguments(node)) visitName(node.expression, via);
    if (ts.isTypeQueryNode(node)) visitName(node.exprName, via);
    if (ts.isExportSpecifier(node) || ts.isExportAssignment(node)) return;
    const unannotated =
      ((ts.isVariableDeclaration(node) || ts.isPropertyDeclaration(node) || ts.isParameter(node)) && node.type === undefined) ||
      ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isGetAccessorDeclaration(node)) && node.type === undefined);
    if (unannotated && 'name' in node && node.name !== undefined) checkInferred(node, node.name as ts.Node, via);
    ts.forEachChild(node, (child) => {
      // Implementations are not part of the declarations: bodies, and initializers whose type is written out or inferred above.
      if ((ts.isFunctionLike(node) && child === (node as ts.FunctionLikeDeclaration).body) || ('initializer' in node && child === node.initializer)) return;
      walk(child, via);
    });
  };

  for (const entry of entries) {
    const source = program.getSourceFile(join(root, entry));
    const moduleSymbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (moduleSymbol === undefined) throw new Error(`cannot read the exports of ${entry}`);
    for (const exported of checker.getExportsOfModule(moduleSymbol)) visitSymbol(exported, relative(root, join(root, entry)));
  }
  return [...found].sort();
}

describe('public types under our exported names: no codegen name in any public signature or hover', () => {
  const program = createProgram([...ENTRY_POINTS, LEAKY_FIXTURE]);

  it('no entry point exports, or shows in a signature, a type from src/generated', () => {
    expect(codegenNamesInPublicSurface(program, ENTRY_POINTS)).toEqual([]);
  });

  it('the check finds codegen names: exported aliases, members, and inferred types (fixture)', () => {
    const found = codegenNamesInPublicSurface(program, [LEAKY_FIXTURE]);
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringContaining('Meeting -> ConsultingMeetingFieldsFragment'),
        expect.stringContaining('Wrapper -> CouponFieldsFragment'),
        expect.stringMatching(/leakedTable -> \w+ \(inferred type\)/),
      ]),
    );
  });
});
