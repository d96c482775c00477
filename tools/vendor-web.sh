#!/usr/bin/env bash
# Copies the npm packages listed in tools/vendored.tsv into the repository: the web client's
# QR code generator (uqr, for the authenticator setup) and the browser tests' accessibility
# checker (axe-core). The web client has no build step, so its libraries are plain files in
# web/, committed as npm publishes them; to update one, change its version in the list, run
# this script, and commit what changed (the list, the files and their licences).
#
#   tools/vendor-web.sh        # needs npm and the npm registry
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
grep -v '^#' tools/vendored.tsv | while IFS=$'\t' read -r package version licence from to; do
  unpacked="$work/$package-$version"
  if [ ! -d "$unpacked" ]; then
    mkdir -p "$unpacked"
    tarball=$(cd "$work" && npm pack --silent "$package@$version")
    tar xzf "$work/$tarball" -C "$unpacked"
  fi
  declared=$(node -p "require('$unpacked/package/package.json').license")
  if [ "$declared" != "$licence" ]; then
    echo "$package $version is licensed $declared, not $licence as tools/vendored.tsv says" >&2
    exit 1
  fi
  mkdir -p "$(dirname "$to")"
  cp "$unpacked/package/$from" "$to"
  echo "$package@$version ($licence): $from -> $to  sha256 $(sha256sum "$to" | cut -d' ' -f1)"
done
