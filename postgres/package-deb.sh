#!/usr/bin/env bash
# A Debian package of the extension for one server: `cargo pgrx package` lays out the files
# under that server's directories, dpkg-deb builds postgresql-NN-uuidkit from them. Called by
# `scripts/pg-extension deb PG_CONFIG` (which installs dpkg-dev, cargo-pgrx and its init
# first); for Debian's own servers (PG_CONFIG under /usr/lib/postgresql/NN), whose package
# postgresql-NN it depends on. Installable with `apt install ./postgres/target/debian/…deb`.
set -euo pipefail
pg_config=$1
ext=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
major=$("$pg_config" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
version=$(sed -nE 's/^version = "(.*)"/\1/p' "$ext/Cargo.toml" | head -n 1)
arch=$(dpkg --print-architecture)
out=${CARGO_TARGET_DIR:?}/package-root
rm -rf "$out"
if ! (cd "$ext" && NO_COLOR=1 cargo pgrx package --pg-config "$pg_config" --out-dir "$out") 2>&1 |
    sed 's/\x1b\[[0-9;]*m//g' | { grep -vE '^\s+(Compiling|Checking|Downloaded|Downloading)' || true; }; then
    { echo "package-deb: cargo pgrx package failed" >&2; exit 1; }
fi
lib=$out$("$pg_config" --pkglibdir)/uuidkit.so
[ -f "$lib" ] || { echo "package-deb: $lib is missing" >&2; exit 1; }
strip --strip-unneeded "$lib"
mkdir -p "$out/DEBIAN" "$out/usr/share/doc/postgresql-$major-uuidkit"
cp "$ext/../docs/postgres.md" "$out/usr/share/doc/postgresql-$major-uuidkit/" 2> /dev/null || true
cp "$ext/../LICENSE-MIT" "$ext/../LICENSE-APACHE" "$out/usr/share/doc/postgresql-$major-uuidkit/"
size=$(du -sk --exclude=DEBIAN "$out" | cut -f1)
cat > "$out/DEBIAN/control" <<CONTROL
Package: postgresql-$major-uuidkit
Version: $version-1
Architecture: $arch
Maintainer: uuidkit maintainers <maintainers@uuidkit.example.invalid>
Depends: postgresql-$major, libc6
Section: database
Priority: optional
Installed-Size: $size
Homepage: https://docs.rs/uuidkit
Description: uuidkit UUIDs for PostgreSQL $major (CREATE EXTENSION uuidkit)
 RFC 9562 UUIDs in PostgreSQL: uuidv1/v4/v6/v7/v8 generators, strictly ordered
 across all backends and restarts when loaded with shared_preload_libraries,
 uuid-ossp, pg_uuidv7 and PostgreSQL 18 function names, uuid_v7_floor for
 index range scans, and the TypeID, ULID, base58 and base64url short forms.
CONTROL
mkdir -p "$CARGO_TARGET_DIR/../debian"
deb=$(cd "$CARGO_TARGET_DIR/../debian" && pwd)/postgresql-$major-uuidkit_$version-1_$arch.deb
dpkg-deb --root-owner-group --build "$out" "$deb" > /dev/null
echo "package-deb: $deb"
dpkg-deb --info "$deb" | sed -n '/Package:/,/Description:/p'
dpkg-deb --contents "$deb" | awk '{print $NF}' | grep -E 'uuidkit(\.so|\.control|--)'
