# Sourced by scripts/cross-check and scripts/wasm-test: the cargo flags with which both build a
# target's std from source (-Zbuild-std), in the array `build_std`. One definition, because a
# std built with other flags is built again: wasm32-unknown-unknown's is shared by the two.
#
# std without its `backtrace` feature (addr2line, gimli, object, miniz_oxide: symbolising a
# backtrace): nothing here reads one. The std crates without debug information, debug
# assertions and overflow checks: the checks only compile against them and the WASM tests only
# call them. So built, the library's check with its std took 8 to 14 % less CPU
# (x86_64-pc-windows-msvc: 99 CPU s against 107; FreeBSD: 94 against 109).
build_std=(-Zbuild-std=std,panic_abort -Zbuild-std-features=panic-unwind)
for crate in core alloc std compiler_builtins proc_macro; do
    build_std+=(--config "profile.dev.package.$crate.debug=0"
        --config "profile.dev.package.$crate.debug-assertions=false"
        --config "profile.dev.package.$crate.overflow-checks=false")
done
