//! `uuidkit gen` against RFC 9562 §6.1 and §6.2, by running the real binary: the Method 3
//! counter width the RFC allows, and timestamps in UTC whatever the TZ variable says.

use crate::common;

use std::time::{SystemTime, UNIX_EPOCH};

use common::{code, run_env, stderr, stdout};

/// Reported: `gen v7 --method 3 --counter-bits 4` was accepted. §6.2: "the counter SHOULD be at
/// least 12 bits but no longer than 42 bits"; 0 means no counter.
#[test]
fn gen_v7_method_3_counter_is_none_or_12_to_42_bits() {
    for bits in ["1", "4", "11", "43"] {
        let o = run_env(
            &["gen", "v7", "--method", "3", "--counter-bits", bits],
            b"",
            &[],
        );
        assert_eq!(code(&o), 2, "--counter-bits {bits}");
        assert_eq!(stdout(&o), "", "--counter-bits {bits}");
        let want = format!(
            "v7: invalid generator configuration: v7 Method 3 counter width is {bits} bits, \
             allowed 0 (no counter) or 12 to 42 (RFC 9562 §6.2: \"the counter SHOULD be at least \
             12 bits but no longer than 42 bits\")"
        );
        assert!(stderr(&o).contains(&want), "{bits}: {}", stderr(&o));
    }
    for bits in ["0", "12", "42"] {
        let o = run_env(
            &[
                "gen",
                "v7",
                "--method",
                "3",
                "--counter-bits",
                bits,
                "-C",
                "3",
            ],
            b"",
            &[],
        );
        assert_eq!(code(&o), 0, "--counter-bits {bits}: {}", stderr(&o));
        assert_eq!(stdout(&o).lines().count(), 3);
    }
}

fn unix_ms_now() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or(0)
}

/// RFC 9562 §5.1, §5.7: the timestamps are UTC. Whatever TZ says (14 hours ahead, 12 behind, a
/// zone with daylight saving, garbage), the v7 millisecond and the v1/v6 time lie between two
/// readings of the UTC clock taken around the run.
#[test]
fn gen_timestamps_are_utc_whatever_tz_says() {
    for tz in [
        "Pacific/Kiritimati",
        "Etc/GMT+12",
        "America/New_York",
        "XYZ-9:30",
        ":/nonexistent",
    ] {
        for v in ["v7", "v6", "v1"] {
            let before = unix_ms_now();
            let o = run_env(&["gen", v, "--format", "int"], b"", &[("TZ", tz)]);
            let after = unix_ms_now();
            assert_eq!(code(&o), 0, "{tz} {v}: {}", stderr(&o));
            let n: u128 = stdout(&o).trim().parse().expect("an integer");
            let ms = match v {
                "v7" => n >> 80,
                _ => {
                    // 100-ns ticks since 1582-10-15, from the v6 or v1 field order.
                    let ticks = if v == "v6" {
                        ((n >> 80) << 12) | ((n >> 64) & 0xfff)
                    } else {
                        ((n >> 64) & 0xfff) << 48 | ((n >> 80) & 0xffff) << 32 | (n >> 96)
                    };
                    (ticks - 0x01B2_1DD2_1381_4000) / 10_000
                }
            };
            assert!(
                before <= ms && ms <= after,
                "TZ={tz} {v}: {ms} ms not within {before}..={after}"
            );
        }
    }
}
