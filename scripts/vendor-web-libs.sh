#!/usr/bin/env bash
# Refreshes the page's two vendored libraries from the npm registry, byte for byte as
# published, with their licences: marked (Markdown → HTML) and DOMPurify (sanitises that
# HTML). The page loads them from /static/vendor/; nothing is fetched at run time.
#   scripts/vendor-web-libs.sh            (bump the versions below, run, commit)
set -euo pipefail
MARKED=18.2.1
DOMPURIFY=3.4.18
out="$(cd "$(dirname "$0")/.." && pwd)/src/cartwise/web/static/vendor"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
npm pack --silent "marked@$MARKED" "dompurify@$DOMPURIFY" >/dev/null
mkdir marked dompurify
tar xzf "marked-$MARKED.tgz" -C marked --strip-components=1
tar xzf "dompurify-$DOMPURIFY.tgz" -C dompurify --strip-components=1
mkdir -p "$out"
cp marked/lib/marked.esm.js "$out/marked.esm.js"
cp marked/LICENSE "$out/LICENSE-marked"
# .js, not .mjs: every server maps .js to text/javascript, which module scripts require.
cp dompurify/dist/purify.es.mjs "$out/purify.es.js"
cp dompurify/LICENSE "$out/LICENSE-dompurify"
printf 'marked %s (MIT)\ndompurify %s (Apache-2.0 or MPL-2.0)\n' "$MARKED" "$DOMPURIFY" >"$out/VERSIONS"
echo "vendored marked $MARKED and dompurify $DOMPURIFY into $out"
