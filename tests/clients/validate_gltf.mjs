// Runs the Khronos glTF validator on a .glb or .gltf and prints its counts as JSON:
//   node validate_gltf.mjs FILE [OUT.json]
// Exit status 0 when the file has no errors and no warnings, 1 otherwise, 2 when it cannot run.
// External resources (a .gltf's images and buffers) are read from beside the file.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import validator from 'gltf-validator';

const [file, out] = process.argv.slice(2);
if (!file) {
  console.error('usage: node validate_gltf.mjs FILE [OUT.json]');
  process.exit(2);
}
try {
  const bytes = new Uint8Array(await readFile(file));
  const report = await validator.validateBytes(bytes, {
    uri: path.basename(file),
    maxIssues: 0,
    externalResourceFunction: (uri) =>
      readFile(path.join(path.dirname(file), decodeURIComponent(uri))).then((b) => new Uint8Array(b)),
  });
  const issues = report.issues;
  const summary = {
    errors: issues.numErrors,
    warnings: issues.numWarnings,
    infos: issues.numInfos,
    hints: issues.numHints,
    messages: issues.messages
      .filter((m) => m.severity <= 1)
      .slice(0, 20)
      .map((m) => `${m.severity === 0 ? 'error' : 'warning'} ${m.code} ${m.pointer ?? ''}: ${m.message}`),
    info: report.info ?? {},
  };
  const text = JSON.stringify(summary, null, 1);
  if (out) await writeFile(out, text);
  console.log(`${file}: ${summary.errors} errors, ${summary.warnings} warnings, ${summary.infos} infos, ${summary.hints} hints`);
  for (const m of summary.messages) console.log('  ' + m);
  process.exit(summary.errors === 0 && summary.warnings === 0 ? 0 : 1);
} catch (e) {
  console.error(`${file}: the validator could not run: ${e}`);
  process.exit(2);
}
