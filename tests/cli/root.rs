//! For the tests that need root (ignored in the default run; `scripts/root-tests` runs them):
//! the check that a test about to use a path under `/run` has the private, empty `/run` that
//! script gives it, so that no test ever touches the machine's own `/run`.

/// The variable `scripts/root-tests` sets when it runs the tests in a mount namespace of
/// their own with an empty tmpfs on `/run`.
pub const PRIVATE_RUN_ENV: &str = "UUIDKIT_TEST_PRIVATE_RUN";

/// Fails the test unless it runs with the private `/run` of `scripts/root-tests`: `path` (under
/// `/run`) is then the test's own, not the machine's.
pub fn require_private_run(path: &str) {
    assert!(
        std::env::var_os(PRIVATE_RUN_ENV).is_some_and(|v| v == "1"),
        "this test serves on {path}: run it with scripts/root-tests, which gives it a private, \
         empty /run ({PRIVATE_RUN_ENV}=1), so that the machine's /run is never touched; it \
         fails rather than pass unchecked"
    );
    // Empty at the start; the root tests make only these there.
    let others: Vec<String> = std::fs::read_dir("/run")
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n != "uuidkit" && n != "uuidd")
                .collect()
        })
        .unwrap_or_else(|e| vec![format!("(unreadable: {e})")]);
    assert!(
        others.is_empty(),
        "/run holds {others:?}: not the empty /run of scripts/root-tests"
    );
}
