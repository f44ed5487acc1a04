#!/usr/bin/env bash
# Checks the studio page's files (Sources/ReelStudio/Page/Assets), which no compiler reads:
#   1. node parses every .js as an ES module (V8, the parser chromium runs it with);
#   2. eslint (Debian's, scripts/page.eslintrc.json: eslint:recommended, so undefined names,
#      unused variables, unreachable code…) lints them;
#   3. scripts/check-page-markup.py checks the HTML (closed in order, no inline script or style:
#      the Content Security Policy refuses them), the CSS (braces), the SVG (XML), and that each
#      file the page links or imports is there.
# Prints FILE:LINE: what for each problem and exits 1 when there is any. `make check-page` runs
# it, and `make test` runs that first; node and eslint come from scripts/packages.txt.
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
assets=Sources/ReelStudio/Page/Assets
failed=0

for tool in node eslint python3; do
    command -v "$tool" >/dev/null 2>&1 || { echo "check-page: $tool is not installed (make setup installs it)" >&2; exit 1; }
done

# Parse: from standard input, so that node reads the file as a module whatever its extension.
for file in "$assets"/*.js; do
    if ! output=$(node --input-type=module --check < "$file" 2>&1); then
        # Where and what, without node's own stack.
        printf '%s\n' "${output//\[stdin\]/$file}" | grep -v -e '^    at ' -e '^Node\.js v' >&2
        failed=1
    fi
done

# Lint. Debian's eslint finds its modules in /usr/share/nodejs, which only Debian's own nodejs
# searches; the unix formatter needs none of the modules Debian's chalk no longer provides.
if ! NODE_PATH=/usr/share/nodejs eslint --no-eslintrc -c scripts/page.eslintrc.json -f unix "$assets"/*.js >&2; then
    failed=1
fi

python3 scripts/check-page-markup.py "$assets" >&2 || failed=1

if [ "$failed" -ne 0 ]; then
    echo "check-page: the studio page has problems (above)" >&2
    exit 1
fi
echo "check-page: $(ls "$assets" | wc -l) files of the studio page parse and pass the lint"
