import { readFileSync, readdirSync } from 'node:fs';
import { Kind, parse, print, stripIgnoredCharacters, visit, type DefinitionNode, type FragmentDefinitionNode } from 'graphql';
import * as esbuild from 'esbuild';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/index.js';

const definitionsIn = (folder: string): DefinitionNode[] =>
  readdirSync(folder).flatMap((file) => parse(readFileSync(`${folder}/${file}`, 'utf8')).definitions);

const sourceFragments = new Map(
  definitionsIn('graphql/fragments')
    .filter((definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION)
    .map((fragment) => [fragment.name.value, fragment]),
);
const sourceOperations = new Map(
  definitionsIn('graphql/operations').flatMap((definition) => (definition.kind === Kind.OPERATION_DEFINITION && definition.name ? [[definition.name.value, definition] as const] : [])),
);

/** The fragments a definition spreads, and the ones they spread, by name. */
function spreadClosure(definition: DefinitionNode, found = new Set<string>()): Set<string> {
  visit(definition, {
    FragmentSpread(node) {
      const name = node.name.value;
      if (found.has(name)) return;
      found.add(name);
      const fragment = sourceFragments.get(name);
      if (fragment === undefined) throw new Error(`no fragment ${name} in graphql/fragments`);
      spreadClosure(fragment, found);
    },
  });
  return found;
}

describe('generated documents (graphql/shared-fragments-plugin.cjs)', () => {
  it('write each fragment\'s text once in src/generated/graphql.ts, however many documents spread it', () => {
    const generated = readFileSync('src/generated/graphql.ts', 'utf8');
    for (const name of sourceFragments.keys()) {
      expect(generated.split(`fragment ${name} on `).length - 1, name).toBe(1);
    }
  });

  it.each(Object.entries(OPERATIONS))('%s: the document sent is its operation file plus exactly the fragments it spreads, each once', (_field, op) => {
    const sent = parse(op.document).definitions;
    const [operation, ...fragments] = sent;
    if (operation?.kind !== Kind.OPERATION_DEFINITION || operation.name === undefined) throw new Error('the document must open with its named operation');
    const source = sourceOperations.get(operation.name.value);
    if (source === undefined) throw new Error(`no operation ${operation.name.value} in graphql/operations`);
    expect(print(operation)).toBe(print(source));
    const names = fragments.map((fragment) => (fragment.kind === Kind.FRAGMENT_DEFINITION ? fragment.name.value : fragment.kind));
    expect([...names].sort()).toEqual([...spreadClosure(source)].sort());
    for (const fragment of fragments) {
      if (fragment.kind !== Kind.FRAGMENT_DEFINITION) continue;
      expect(print(fragment)).toBe(print(sourceFragments.get(fragment.name.value) as FragmentDefinitionNode));
    }
  });

  it("leave the fragments' own documents out of an app's bundle: the SDK never uses them (pureMagicComment)", async () => {
    const result = await esbuild.build({
      stdin: { contents: "import { CreateCouponDocument } from './src/generated/graphql.ts'; globalThis.document = CreateCouponDocument;", resolveDir: process.cwd(), loader: 'ts' },
      bundle: true,
      minify: true,
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    const bundled = result.outputFiles[0]?.text ?? '';
    expect(bundled).toContain('mutation CreateCoupon(');
    expect(bundled).not.toContain('fragmentName');
  });

  it('send no ignored characters: the sent text is already what graphql-js stripIgnoredCharacters gives', () => {
    for (const op of Object.values(OPERATIONS)) expect(op.document).toBe(stripIgnoredCharacters(op.document));
  });
});
