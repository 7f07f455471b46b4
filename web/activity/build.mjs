// Builds the Activity's client into bot/activity/static/ (scripts/build-activity.sh runs it).
//
// The built files are committed, so that `pip install -e .` needs no npm. Each
// carries in its first line the digest of what it was built from
// (`chabudai-activity-source <sha256>`: src/**, style.css, index.html,
// build.mjs, package-lock.json — see sourceDigest), and
// tests/bot/test_activity_bundle.py fails when the committed files were not
// built from the sources as they are.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "..", "..", "bot", "activity", "static");

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

// The digest of the sources: every file's path (relative, "/"-separated) and
// bytes, in sorted order. The test recomputes it the same way in Python.
export function sourceDigest() {
  const inputs = [...files(join(here, "src")), ...["style.css", "index.html", "build.mjs", "package-lock.json"].map((n) => join(here, n))];
  const names = inputs.map((p) => relative(here, p).split(sep).join("/")).sort();
  const hash = createHash("sha256");
  for (const name of names) {
    hash.update(name + "\0");
    hash.update(readFileSync(join(here, name)));
    hash.update("\0");
  }
  return hash.digest("hex");
}

const digest = sourceDigest();
const banner = `/* chabudai-activity-source ${digest} (built by scripts/build-activity.sh from web/activity/; do not edit) */`;

rmSync(join(out, "assets"), { recursive: true, force: true });
mkdirSync(join(out, "assets"), { recursive: true });
await esbuild.build({
  entryPoints: { main: join(here, "src", "main.js"), style: join(here, "style.css") },
  outdir: join(out, "assets"),
  bundle: true,
  format: "esm",
  target: ["es2020"],
  minify: true,
  legalComments: "eof",
  banner: { js: banner, css: banner },
  logLevel: "warning",
});
const html = readFileSync(join(here, "index.html"), "utf8");
writeFileSync(join(out, "index.html"), `<!-- chabudai-activity-source ${digest} (built from web/activity/index.html; do not edit) -->\n${html}`);
console.log(`built bot/activity/static/ from sources ${digest.slice(0, 12)}`);
