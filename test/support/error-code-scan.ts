// Finds every error code the server's source can answer, by reading it as TypeScript: the code
// argument of `new ApiError(status, code, …)`, `new DomainError(kind, code, …)`, `invalid(code, …)`,
// `conflict(code, …)`, `badRequest(code, …)` and `serializeErrorBody(id, code, …)`, and
// `code: '…'` in an object literal (the refusals of src/http/client-errors.ts), each with the
// status it is answered with where the source says it. Only string literals are codes: a call
// whose code is anything else than a literal or a name passed through is reported as unreadable.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import type { DomainErrorKind } from '../../src/domain/domain-error.ts';
import { DOMAIN_ERROR_STATUS } from '../../src/http/domain-errors.ts';

/** Where a code is written: the file (relative to the repository) and the module owning it. */
export interface FoundCode {
  code: string;
  /** The status the source answers it with, when the source says (a literal or a kind). */
  status: number | undefined;
  /** `src/…/file.ts:line`. */
  at: string;
  /** `catalog` for a file under src/modules/catalog/; `http` for every shared file. */
  owner: string;
}

/** The callee, the index of its code argument, and how the status is known. */
const CODE_ARGUMENT: Record<
  string,
  { index: number; status: (args: ts.Expression[]) => number | undefined }
> = {
  ApiError: { index: 1, status: ([status]) => numberOf(status) },
  DomainError: {
    index: 1,
    status: ([kind]) =>
      kind && ts.isStringLiteralLike(kind)
        ? DOMAIN_ERROR_STATUS[kind.text as DomainErrorKind]
        : undefined,
  },
  invalid: { index: 0, status: () => 400 },
  conflict: { index: 0, status: () => 409 },
  badRequest: { index: 0, status: () => 400 },
  serializeErrorBody: { index: 1, status: () => undefined },
};

const CODE_SHAPE = /^[A-Z][A-Za-z]+$/;

function numberOf(node: ts.Expression | undefined): number | undefined {
  return node && ts.isNumericLiteral(node) ? Number(node.text) : undefined;
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

function ownerOf(file: string): string {
  const parts = file.split(sep);
  const modules = parts.indexOf('modules');
  return modules >= 0 && parts[modules - 1] === 'src' ? parts[modules + 1]! : 'http';
}

function calleeName(node: ts.CallExpression | ts.NewExpression): string | undefined {
  const callee = node.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
}

/** `statusCode: 413` beside `code: '…'` in the same object literal. */
function siblingStatus(property: ts.PropertyAssignment): number | undefined {
  const literal = property.parent;
  if (!ts.isObjectLiteralExpression(literal)) return undefined;
  for (const other of literal.properties)
    if (
      ts.isPropertyAssignment(other) &&
      ts.isIdentifier(other.name) &&
      (other.name.text === 'statusCode' || other.name.text === 'status')
    )
      return numberOf(other.initializer);
  return undefined;
}

/** Every code literal in the TypeScript files under `root`/src, and the calls whose code is not one. */
export function scanErrorCodes(root: string): { found: FoundCode[]; unreadable: string[] } {
  const found: FoundCode[] = [];
  const unreadable: string[] = [];
  for (const path of sourceFiles(join(root, 'src'))) {
    const file = relative(root, path);
    const owner = ownerOf(file);
    const source = ts.createSourceFile(
      path,
      readFileSync(path, 'utf8'),
      ts.ScriptTarget.Latest,
      true,
    );
    const at = (node: ts.Node) =>
      `${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
        const name = calleeName(node);
        const call = name === undefined ? undefined : CODE_ARGUMENT[name];
        const args = [...(node.arguments ?? [])];
        const argument = call && args[call.index];
        if (call && argument && ts.isStringLiteralLike(argument)) {
          found.push({ code: argument.text, status: call.status(args), at: at(node), owner });
        } else if (
          argument &&
          !ts.isIdentifier(argument) &&
          !ts.isPropertyAccessExpression(argument)
        ) {
          unreadable.push(`${at(node)} ${argument.getText(source)}`);
        }
      } else if (
        ts.isPropertyAssignment(node) &&
        ts.isIdentifier(node.name) &&
        node.name.text === 'code' &&
        ts.isStringLiteralLike(node.initializer) &&
        CODE_SHAPE.test(node.initializer.text)
      ) {
        found.push({
          code: node.initializer.text,
          status: siblingStatus(node),
          at: at(node),
          owner,
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { found, unreadable };
}
