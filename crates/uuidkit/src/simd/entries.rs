//! The pieces every level's table entries are built from: the any-form parser's length
//! dispatch and prefix check around a level's two body kernels, the one-form parsers, and the
//! batch writer's loop. Macros rather than generic functions, so that the kernels inline into
//! each level's `#[target_feature]` functions.
//!
//! Below the kernels (`x86.rs`, `aarch64.rs`) and the dispatch (`mod.rs`): this module uses only
//! the text forms (`text.rs`) and, for a rejected input, the slow path (`diagnose.rs`).

/// The loop of `encode_lines` around a level's two encoders (`unsafe fn`s needing the level's
/// target features, called from a function that has them): one loop per form, so that the
/// form's layout (`text::write_form`) folds and the encoder inlines, and nothing but the stores
/// is left per UUID.
macro_rules! encode_lines_body {
    ($u:expr, $format:expr, $case:expr, $out:expr, $hyphenated:path, $simple:path) => {{
        let (u, case, out): (&[$crate::Uuid], $crate::text::Case, &mut [u8]) = ($u, $case, $out);
        let mut at = 0usize;
        match $format {
            $crate::text::Format::Hyphenated => {
                $crate::simd::entries::encode_each!(
                    u,
                    out,
                    at,
                    case,
                    Hyphenated,
                    36,
                    $hyphenated,
                    $simple
                )
            }
            $crate::text::Format::Simple => {
                $crate::simd::entries::encode_each!(
                    u,
                    out,
                    at,
                    case,
                    Simple,
                    32,
                    $hyphenated,
                    $simple
                )
            }
            $crate::text::Format::Braced => {
                $crate::simd::entries::encode_each!(
                    u,
                    out,
                    at,
                    case,
                    Braced,
                    38,
                    $hyphenated,
                    $simple
                )
            }
            $crate::text::Format::Urn => {
                $crate::simd::entries::encode_each!(u, out, at, case, Urn, 45, $hyphenated, $simple)
            }
        }
        at
    }};
}
pub(crate) use encode_lines_body;

/// One form's loop of [`encode_lines_body`]: for each UUID whose line (`$n` bytes, the form's
/// length, and `\n`) still fits at `$at`, writes the form and ends the line.
macro_rules! encode_each {
    ($u:ident, $out:ident, $at:ident, $case:ident, $form:ident, $n:literal,
     $hyphenated:path, $simple:path) => {
        for one in $u {
            let Some(line) = $out
                .get_mut($at..)
                .and_then(|r| r.first_chunk_mut::<{ $n + 1 }>())
            else {
                break;
            };
            let b = one.as_bytes();
            #[allow(unused_unsafe)]
            $crate::text::write_form(
                $crate::text::Format::$form,
                line,
                // SAFETY: this runs in a level's `encode_lines`, which is only called on a CPU
                // with the level's target features (the `Kernels` invariant).
                |body| unsafe { $hyphenated(b, $case, body) },
                // SAFETY: as above.
                |body| unsafe { $simple(b, $case, body) },
            );
            line[$n] = b'\n';
            $at += $n + 1;
        }
    };
}
pub(crate) use encode_each;

/// The three parsing entries of a level, around its two body kernels (each
/// `unsafe fn(&[u8; N]) -> Option<[u8; 16]>` needing the level's target features). The
/// any-form parser has the same length dispatch and brace/prefix checks as
/// `scalar::parse_fast`; rejected input goes to the level's `$rejected`
/// (`unsafe fn(&[u8], diagnose::Entry) -> Error`, cold, which ends in the slow path of
/// `diagnose.rs`). The entries are `pub(super)`, for the level's table in `simd/mod.rs`.
#[cfg(feature = "simd")]
#[allow(unused_macros)] // unused on targets without a SIMD level
macro_rules! parse_entries {
    ($feature:literal, $parse:ident, $hyphenated:ident, $simple:ident,
     $hyphenated_body:path, $simple_body:path, $rejected:path) => {
        $crate::simd::entries::parse_entries!(
            $feature,
            $hyphenated,
            $simple,
            $hyphenated_body,
            $simple_body,
            $rejected
        );

        /// Any of the four text forms (hyphenated, simple, braced, URN).
        ///
        /// # Safety
        ///
        #[doc = concat!("The `Kernels` contract (`simd/mod.rs`): the CPU supports `", $feature, "`.")]
        #[target_feature(enable = $feature)]
        pub(super) unsafe fn $parse(s: &[u8]) -> Result<$crate::Uuid, $crate::error::Error> {
            let bytes = match s.len() {
                36 => match s.first_chunk::<36>() {
                    // SAFETY: this function has the target features the kernel needs.
                    Some(body) => unsafe { $hyphenated_body(body) },
                    None => None,
                },
                32 => match s.first_chunk::<32>() {
                    // SAFETY: as above.
                    Some(body) => unsafe { $simple_body(body) },
                    None => None,
                },
                38 => match s.split_first() {
                    Some((b'{', rest)) => match rest.split_first_chunk::<36>() {
                        // SAFETY: as above.
                        Some((body, [b'}'])) => unsafe { $hyphenated_body(body) },
                        _ => None,
                    },
                    _ => None,
                },
                45 => match s.split_first_chunk::<9>() {
                    Some((prefix, rest)) if $crate::simd::entries::is_urn_prefix(prefix) => {
                        match rest.first_chunk::<36>() {
                            // SAFETY: as above.
                            Some(body) => unsafe { $hyphenated_body(body) },
                            None => None,
                        }
                    }
                    _ => None,
                },
                _ => None,
            };
            match bytes {
                Some(b) => Ok($crate::Uuid::from_bytes(b)),
                // SAFETY: this function has the target features `$rejected` needs.
                None => Err(unsafe { $rejected(s, $crate::diagnose::Entry::Any) }),
            }
        }
    };
    // Only the one-form entries (a level with its own any-form parser).
    ($feature:literal, $hyphenated:ident, $simple:ident,
     $hyphenated_body:path, $simple_body:path, $rejected:path) => {
        /// The bare hyphenated form only.
        ///
        /// # Safety
        ///
        #[doc = concat!("The `Kernels` contract (`simd/mod.rs`): the CPU supports `", $feature, "`.")]
        #[target_feature(enable = $feature)]
        pub(super) unsafe fn $hyphenated(s: &[u8]) -> Result<$crate::Uuid, $crate::error::Error> {
            if let Some(body) = s.first_chunk::<36>() {
                if s.len() == 36 {
                    // SAFETY: this function has the target features the kernel needs.
                    if let Some(b) = unsafe { $hyphenated_body(body) } {
                        return Ok($crate::Uuid::from_bytes(b));
                    }
                }
            }
            // SAFETY: as above.
            Err(unsafe { $rejected(s, $crate::diagnose::Entry::Hyphenated) })
        }

        /// The 32-digit simple form only.
        ///
        /// # Safety
        ///
        #[doc = concat!("The `Kernels` contract (`simd/mod.rs`): the CPU supports `", $feature, "`.")]
        #[target_feature(enable = $feature)]
        pub(super) unsafe fn $simple(s: &[u8]) -> Result<$crate::Uuid, $crate::error::Error> {
            if let Some(body) = s.first_chunk::<32>() {
                if s.len() == 32 {
                    // SAFETY: this function has the target features the kernel needs.
                    if let Some(b) = unsafe { $simple_body(body) } {
                        return Ok($crate::Uuid::from_bytes(b));
                    }
                }
            }
            // SAFETY: as above.
            Err(unsafe { $rejected(s, $crate::diagnose::Entry::Simple) })
        }
    };
}
#[cfg(feature = "simd")]
#[allow(unused_imports)]
pub(crate) use parse_entries;

/// `urn:uuid:` in any letter case, as `scalar::is_urn_prefix` decides it: OR-ing 0x20 into a
/// letter position lower-cases exactly the two bytes that spell that letter; the colons are
/// compared as they are.
#[cfg(feature = "simd")]
#[allow(dead_code)] // unused on targets without a SIMD level
#[inline(always)]
pub(crate) fn is_urn_prefix(p: &[u8; 9]) -> bool {
    use crate::text::{URN_LETTERS, URN_PREFIX, URN_WORD};
    let mut w = [0u8; 8];
    w.copy_from_slice(&p[..8]);
    (u64::from_le_bytes(w) | URN_LETTERS) == URN_WORD && p[8] == URN_PREFIX[8]
}

/// The two column entries of a level (the `arrow` feature's hot loops), around its hyphenated
/// body parser and encoder: the per-row kernel inlined into one loop with the level's target
/// features (the attributes given; none for the scalar level), instead of an indirect call and
/// a `Result` per row.
#[cfg(feature = "arrow")]
macro_rules! run_entries {
    ($(#[$attr:meta])* $parse_run:ident, $encode_run:ident, $hyphenated_body:path,
     $encode_hyphenated:path) => {
        /// Parses the consecutive 36-byte hyphenated bodies of `text` into the consecutive
        /// 16-byte values of `out`, as many as both hold, up to the first that is not one;
        /// returns how many it wrote.
        ///
        /// # Safety
        ///
        /// The [`Kernels`](super::Kernels) contract.
        $(#[$attr])*
        #[allow(unused_unsafe)] // the scalar level's body is a safe function
        pub(super) unsafe fn $parse_run(text: &[u8], out: &mut [u8]) -> usize {
            let mut done = 0;
            for (s, d) in text.chunks_exact(36).zip(out.chunks_exact_mut(16)) {
                let Some(s) = s.first_chunk::<36>() else {
                    break;
                };
                // SAFETY: this function has the level's target features.
                match unsafe { $hyphenated_body(s) } {
                    Some(b) => d.copy_from_slice(&b),
                    None => break,
                }
                done += 1;
            }
            done
        }

        /// Writes the consecutive 16-byte values of `values` in the hyphenated form into the
        /// consecutive 36-byte slots of `out`, as many as both hold.
        ///
        /// # Safety
        ///
        /// The [`Kernels`](super::Kernels) contract.
        $(#[$attr])*
        #[allow(unused_unsafe)] // as above
        pub(super) unsafe fn $encode_run(values: &[u8], case: $crate::text::Case, out: &mut [u8]) {
            for (v, d) in values.chunks_exact(16).zip(out.chunks_exact_mut(36)) {
                if let (Some(v), Some(d)) = (v.first_chunk::<16>(), d.first_chunk_mut::<36>()) {
                    // SAFETY: this function has the level's target features.
                    unsafe { $encode_hyphenated(v, case, d) };
                }
            }
        }
    };
}
#[cfg(feature = "arrow")]
pub(crate) use run_entries;
