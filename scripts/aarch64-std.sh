# Sourced by scripts/cross-check and scripts/python-wheels: Debian's Rust std for
# aarch64-unknown-linux-gnu, for Debian's rustc (rustc-web), which rustup cannot provide here.
#
#   aarch64_std DIR   prints a sysroot (a directory with lib/rustlib/aarch64-unknown-linux-gnu/lib
#                     in it) to pass as `--sysroot` for that target; returns non-zero (and says
#                     why on standard error) when it cannot be had
#   arm64_download DIR PACKAGE...   (below) what it fetches with; scripts/python-wheels takes
#                     Debian's arm64 Python with it too
#
# The rlibs of libstd-rust-web-dev:arm64 of the installed rustc-web's exact version (a std of
# another build of the compiler does not load), fetched with `apt-get download` and unpacked
# into DIR with the version they are of, and fetched again when that changes. No foreign
# architecture is added to dpkg; no root needed.
# shellcheck shell=bash

# arm64_download DIR PACKAGE...: Debian's arm64 packages (name:arm64[=version]) downloaded into
# DIR as .deb files, with a private apt state in DIR (DIR/lists, DIR/cache: arm64's package
# lists, which apt-get download needs; dpkg's own architectures stay as they are). apt-get's
# output goes to DIR/apt.log.
arm64_download() {
    local dir=$1 apt
    shift
    mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" || return 1
    apt=(-o APT::Architecture=arm64 -o APT::Architectures::=arm64
        -o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache"
        -o Dir::State::status=/dev/null -o Debug::NoLocking=1
        -o Acquire::IndexTargets::deb::DEP-11::DefaultEnabled=false
        -o Acquire::IndexTargets::deb::DEP-11-icons::DefaultEnabled=false
        -o Acquire::IndexTargets::deb::DEP-11-icons-small::DefaultEnabled=false)
    apt-get "${apt[@]}" -qq update > "$dir/apt.log" 2>&1 &&
        (cd "$dir" && apt-get "${apt[@]}" -qq download "$@" >> "$dir/apt.log" 2>&1)
}

aarch64_std() {
    local version dir=$1
    version=$(dpkg-query -W -f '${Version}' rustc-web) || return 1
    if [ "$(cat "$dir/version" 2> /dev/null)" != "$version" ]; then
        rm -rf "$dir" && mkdir -p "$dir" || return 1
        arm64_download "$dir" "libstd-rust-web-dev:arm64=$version" || {
            echo "${0##*/}: cannot fetch libstd-rust-web-dev:arm64=$version (the installed" \
                "rustc-web's version); apt-get said (below). If Debian has a newer one:" \
                "apt-get install --only-upgrade rustc-web cargo-web rust-web-src" >&2
            cat "$dir/apt.log" >&2
            return 1
        }
        dpkg-deb -x "$dir"/libstd-rust-web-dev_*_arm64.deb "$dir/root" &&
            rm -rf "$dir"/*.deb "$dir/lists" "$dir/cache" &&
            echo "$version" > "$dir/version" || return 1
    fi
    echo "$dir/root/usr"
}
