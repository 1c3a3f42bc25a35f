#!/usr/bin/env bash
# Installs Neovim 0.10 beside Debian stable's 0.7.2 as /usr/local/bin/nvim-0.10,
# for the Neovim tests in cmd/jaiph (they run on both). Debian 13 (trixie) has
# 0.10, but its package needs a newer glibc than Debian 12's, so it is not
# installed over the system: apt's own client, with a private configuration
# (sources list, lists, cache and an empty dpkg status under $prefix/apt),
# downloads trixie's neovim and every package it depends on, libc6 included;
# dpkg-deb unpacks them into $prefix/root; the wrapper runs that nvim through
# trixie's dynamic loader with --library-path, which (unlike LD_LIBRARY_PATH)
# is not inherited: the programs Neovim starts (jaiph lsp, shells) run on the
# system's libraries. The system's apt state, packages and libraries are not
# touched. Needs root and http://deb.debian.org; does nothing when nvim-0.10
# already reports 0.10.
set -euo pipefail
prefix=${NVIM010_PREFIX:-/opt/nvim-0.10}
bin=${NVIM010_BIN:-/usr/local/bin/nvim-0.10}
mirror=${NVIM010_MIRROR:-http://deb.debian.org/debian}

if "$bin" --version 2>/dev/null | head -n 1 | grep -q '^NVIM v0\.10\.'; then
  exit 0
fi
if [ "$(dpkg --print-architecture)" != amd64 ]; then
  echo "nvim-0.10.sh: only amd64 is supported (the loader path is x86_64's)" >&2
  exit 1
fi

apt="$prefix/apt"
rm -rf "$apt"
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/state" "$apt/debs"
echo "deb $mirror trixie main" >"$apt/sources.list"
: >"$apt/state/status"
opts=(
  -o "Dir::Etc::SourceList=$apt/sources.list"
  -o Dir::Etc::SourceParts=/dev/null
  -o "Dir::State=$apt/state"
  -o "Dir::State::Lists=$apt/lists"
  -o "Dir::State::status=$apt/state/status"
  -o "Dir::Cache=$apt/cache"
  -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=
  -o Acquire::IndexTargets::deb::DEP-11::DefaultEnabled=false
)
# apt downloads as the unprivileged _apt user when it exists.
if id _apt >/dev/null 2>&1; then
  chown -R _apt "$apt/lists" "$apt/cache" "$apt/debs"
fi
apt-get "${opts[@]}" -q update
# The dependency closure of neovim in trixie (the status is empty: nothing
# counts as installed), virtual packages left out.
mapfile -t pkgs < <(apt-cache "${opts[@]}" depends --recurse --no-recommends \
  --no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances neovim |
  grep -v -e '^ ' -e '^<' | sort -u)
echo "nvim-0.10.sh: trixie packages: ${pkgs[*]}"
(cd "$apt/debs" && apt-get "${opts[@]}" -q download "${pkgs[@]}")

root="$prefix/root"
rm -rf "$root.new"
mkdir -p "$root.new"
for deb in "$apt/debs"/*.deb; do
  dpkg-deb -x "$deb" "$root.new"
done
# Neovim finds its runtime and its tree-sitter parsers (usr/lib/nvim/parser:
# without them a hover's markdown float fails) relative to the executable
# the kernel ran, which is the loader: a copy of it beside nvim makes that
# usr/bin, as it is for an installed nvim.
cp "$root.new/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" "$root.new/usr/bin/ld-linux-x86-64.so.2"
rm -rf "$root"
mv "$root.new" "$root"
rm -rf "$apt/debs" "$apt/cache" "$apt/lists"

mkdir -p "$(dirname "$bin")"
cat >"$bin.new" <<EOF
#!/bin/sh
# Debian trixie's Neovim 0.10 on its own libraries (.ci/nvim-0.10.sh).
root='$root'
VIMRUNTIME="\$root/usr/share/nvim/runtime"
export VIMRUNTIME
exec "\$root/usr/bin/ld-linux-x86-64.so.2" --library-path "\$root/usr/lib/x86_64-linux-gnu" --argv0 nvim-0.10 "\$root/usr/bin/nvim" "\$@"
EOF
chmod 755 "$bin.new"
mv "$bin.new" "$bin"

"$bin" --version | head -n 1 | grep -q '^NVIM v0\.10\.' || {
  echo "nvim-0.10.sh: $bin does not report 0.10:" >&2
  "$bin" --version >&2 || true
  exit 1
}
# Lua runs, the markdown parser loads, and a program it starts runs on the
# system's libraries: no LD_LIBRARY_PATH, nothing of $root mapped.
check=$(mktemp)
trap 'rm -f "$check"' EXIT
cat >"$check" <<EOF
local child = vim.fn.system({ 'sh', '-c', 'echo "\${LD_LIBRARY_PATH:-ok}"; grep -c "$root" /proc/self/maps' })
io.stdout:write('lua ' .. tostring(vim.version()) .. ' markdown ' .. tostring(pcall(vim.treesitter.language.add, 'markdown'))
  .. ' child ' .. child:gsub('\n', ' '))
EOF
out=$("$bin" --headless --clean -c "luafile $check" -c 'qa!')
echo "nvim-0.10.sh: $out"
case "$out" in
  "lua 0.10."*" markdown true child ok 0 ") ;;
  *) echo "nvim-0.10.sh: unexpected answer from $bin" >&2; exit 1 ;;
esac
