import { join } from 'node:path';
import ts from 'typescript';
import { PROJECT_ROOT } from './snippet-workspace.js';

/**
 * The property names of exported types, read from the source with the compiler (so a docs page can
 * be held to a type, which has no run-time list of its keys).
 */
export class TypeMembers {
  readonly #checker: ts.TypeChecker;
  readonly #file: ts.SourceFile;

  /** `source`: a file of the project, e.g. `src/client/options/options.ts`. */
  constructor(source: string) {
    const path = join(PROJECT_ROOT, source);
    const program = ts.createProgram([path], { strict: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, skipLibCheck: true });
    this.#checker = program.getTypeChecker();
    const file = program.getSourceFile(path);
    if (file === undefined) throw new Error(`${source} is not part of the program`);
    this.#file = file;
  }

  /** The properties of the exported type `name` (inherited ones included), in declaration order. */
  of(name: string): string[] {
    return this.#type(name)
      .getProperties()
      .map((property) => property.name);
  }

  /** The properties of the type of property `property` of the exported type `name`, e.g. an event's fields. */
  ofProperty(name: string, property: string): string[] {
    const symbol = this.#type(name).getProperty(property);
    if (symbol === undefined) throw new Error(`${name} has no property ${property}`);
    return this.#checker
      .getTypeOfSymbolAtLocation(symbol, this.#file)
      .getProperties()
      .map((member) => member.name);
  }

  #type(name: string): ts.Type {
    const module = this.#checker.getSymbolAtLocation(this.#file);
    const symbol = module === undefined ? undefined : this.#checker.getExportsOfModule(module).find((candidate) => candidate.name === name);
    if (symbol === undefined) throw new Error(`no export ${name}`);
    return this.#checker.getDeclaredTypeOfSymbol(symbol);
  }
}
