//! The `arrow` feature's column kernels (`uuidkit::arrow`) against the library's single-value
//! codecs: round trips of random values in every form and text layout, nulls, sliced arrays,
//! empty and all-null columns, wrong types and lengths, the error wording (row, character,
//! byte), the generators' order and the extension type. The feature is on in the tests (the
//! crate's dev-dependency on itself).

use std::sync::Arc;

use arrow_array::builder::{BinaryViewBuilder, StringViewBuilder};
use arrow_array::{
    Array, ArrayRef, BinaryArray, FixedSizeBinaryArray, Int64Array, LargeBinaryArray,
    LargeStringArray, StringArray, StringViewArray,
};
use arrow_schema::{ArrowError, DataType};
use uuidkit::arrow::{self, InputForm, OnError, OutputForm};
use uuidkit::{Case, Format, Prefix, ShortForm, TypeId, Uuid};
use uuidkit_test_support::Rng;

const ROWS: usize = if cfg!(debug_assertions) {
    2_000
} else {
    100_000
};

fn random_uuids(seed: u64, n: usize) -> Vec<Uuid> {
    let mut rng = Rng(seed);
    (0..n).map(|_| rng.uuid()).collect()
}

/// The single-value encoder a column kernel must agree with.
type Single = Box<dyn Fn(&Uuid) -> String>;

/// Every form the library writes, with its single-value encoder.
fn output_forms() -> Vec<(OutputForm, Single)> {
    let mut v: Vec<(OutputForm, Single)> = Vec::new();
    for format in [
        Format::Hyphenated,
        Format::Simple,
        Format::Braced,
        Format::Urn,
    ] {
        for case in [Case::Lower, Case::Upper] {
            v.push((
                OutputForm::Rfc(format, case),
                Box::new(move |u: &Uuid| {
                    let mut buf = [0u8; uuidkit::MAX_ENCODED_LEN];
                    u.encode(format, case, &mut buf).to_owned()
                }),
            ));
        }
    }
    for form in ShortForm::ALL {
        v.push((
            OutputForm::Short(form),
            Box::new(move |u: &Uuid| u.short(form).to_string()),
        ));
    }
    for prefix in ["", "user", "a_b"] {
        let p = Prefix::new(prefix).expect("valid prefix");
        v.push((
            OutputForm::TypeId(p),
            Box::new(move |u: &Uuid| TypeId::new(p, *u).to_string()),
        ));
    }
    v
}

/// The parse form that reads what `out` writes.
fn input_form(out: &OutputForm) -> InputForm {
    match out {
        OutputForm::Rfc(..) => InputForm::Rfc,
        OutputForm::Short(f) => InputForm::Short(*f),
        OutputForm::TypeId(_) => InputForm::TypeId,
        _ => unreachable!("a form this test does not know"),
    }
}

fn fixed(ids: &[Option<Uuid>]) -> FixedSizeBinaryArray {
    FixedSizeBinaryArray::try_from_sparse_iter_with_size(
        ids.iter().map(|u| u.map(|u| u.into_bytes())),
        16,
    )
    .expect("16-byte values")
}

fn uuids_of(a: &FixedSizeBinaryArray) -> Vec<Option<Uuid>> {
    (0..a.len())
        .map(|i| {
            a.is_valid(i)
                .then(|| Uuid::from_slice(a.value(i)).expect("16 bytes"))
        })
        .collect()
}

/// Random values with every fifth one null.
fn with_nulls(seed: u64, n: usize) -> Vec<Option<Uuid>> {
    random_uuids(seed, n)
        .into_iter()
        .enumerate()
        .map(|(i, u)| (i % 5 != 3).then_some(u))
        .collect()
}

fn text_layouts(rows: &[Option<String>]) -> Vec<ArrayRef> {
    let mut view = StringViewBuilder::new();
    for r in rows {
        view.append_option(r.as_deref());
    }
    vec![
        Arc::new(StringArray::from_iter(rows.iter().map(|r| r.as_deref()))),
        Arc::new(LargeStringArray::from_iter(
            rows.iter().map(|r| r.as_deref()),
        )),
        Arc::new(view.finish()),
    ]
}

#[test]
fn every_form_round_trips_through_every_text_layout() {
    let ids = with_nulls(41, ROWS);
    let col = fixed(&ids);
    for (form, single) in output_forms() {
        let text = arrow::format::<i32>(&col, &form).expect("format");
        let large = arrow::format::<i64>(&col, &form).expect("format large");
        assert_eq!(text.len(), ids.len());
        assert_eq!(text.null_count(), col.null_count());
        for (i, u) in ids.iter().enumerate() {
            match u {
                Some(u) => {
                    assert_eq!(text.value(i), single(u), "{form:?} row {i}");
                    assert_eq!(large.value(i), single(u), "{form:?} row {i}");
                }
                None => assert!(text.is_null(i) && large.is_null(i)),
            }
        }
        let rows: Vec<Option<String>> = ids.iter().map(|u| u.map(|u| single(&u))).collect();
        for layout in text_layouts(&rows) {
            let back = arrow::parse(&layout, input_form(&form), OnError::Raise).expect("parse");
            assert_eq!(uuids_of(&back), ids, "{form:?} via {}", layout.data_type());
            let ok = arrow::validate(&layout, input_form(&form)).expect("validate");
            assert_eq!(ok.null_count(), col.null_count());
            assert!(ok.iter().flatten().all(|b| b));
        }
    }
}

#[test]
fn parse_accepts_what_the_library_parser_accepts() {
    let ids = random_uuids(7, 400);
    let forms = [
        Format::Hyphenated,
        Format::Simple,
        Format::Braced,
        Format::Urn,
    ];
    let rows: Vec<Option<String>> = ids
        .iter()
        .enumerate()
        .map(|(i, u)| {
            let mut buf = [0u8; uuidkit::MAX_ENCODED_LEN];
            let case = if i % 2 == 0 { Case::Lower } else { Case::Upper };
            Some(u.encode(forms[i % 4], case, &mut buf).to_owned())
        })
        .collect();
    for layout in text_layouts(&rows) {
        let back = arrow::parse(&layout, InputForm::Rfc, OnError::Raise).expect("mixed forms");
        assert_eq!(
            uuids_of(&back),
            ids.iter().copied().map(Some).collect::<Vec<_>>()
        );
    }
    // Random mutations: the kernel's verdict is the library's, row by row.
    let mut rng = Rng(99);
    let mutated: Vec<Option<String>> = rows
        .iter()
        .map(|r| {
            let mut b = r.clone().expect("row").into_bytes();
            let at = rng.below(b.len());
            b[at] = b"0aZ-{}:g \x7f"[rng.below(10)];
            Some(String::from_utf8(b).expect("ascii"))
        })
        .collect();
    for layout in text_layouts(&mutated) {
        let lenient = arrow::parse(&layout, InputForm::Rfc, OnError::Null).expect("null mode");
        let ok = arrow::validate(&layout, InputForm::Rfc).expect("validate");
        for (i, r) in mutated.iter().enumerate() {
            let want = Uuid::try_parse_ascii(r.as_deref().expect("row").as_bytes()).ok();
            assert_eq!(uuids_of(&lenient)[i], want, "row {i}: {r:?}");
            assert_eq!(ok.value(i), want.is_some());
        }
    }
}

#[test]
fn a_bad_row_is_an_error_naming_row_and_character() {
    let rows = vec![
        Some("67e55044-10b1-426f-9247-bb680e5fe0c8".to_owned()),
        None,
        Some("67e55044-10b1-426f-9247-bb680e5fe0cX".to_owned()),
        Some("nope".to_owned()),
    ];
    for layout in text_layouts(&rows) {
        let err = arrow::parse(&layout, InputForm::Rfc, OnError::Raise).unwrap_err();
        let row = arrow::row_error(&err).expect("a row error");
        assert_eq!(row.row(), 2);
        assert_eq!(row.text_error().map(|e| e.position()), Some(35));
        assert_eq!(
            row.to_string(),
            "row 2: invalid character 'X' at byte 35: expected a hexadecimal digit"
        );
        let lenient = arrow::parse(&layout, InputForm::Rfc, OnError::Null).expect("null mode");
        assert_eq!(
            (0..4).map(|i| lenient.is_valid(i)).collect::<Vec<_>>(),
            [true, false, false, false]
        );
        let ok = arrow::validate(&layout, InputForm::Rfc).expect("validate");
        assert_eq!(
            ok.iter().collect::<Vec<_>>(),
            [Some(true), None, Some(false), Some(false)]
        );
    }
    // A named form reads only that form: hyphenated text is not ULID text.
    let text = StringArray::from(vec!["67e55044-10b1-426f-9247-bb680e5fe0c8"]);
    let err = arrow::parse(&text, InputForm::Short(ShortForm::Ulid), OnError::Raise).unwrap_err();
    assert_eq!(
        arrow::row_error(&err).map(|r| r.to_string()).as_deref(),
        Some("row 0: invalid length: expected 26 bytes, found 36")
    );
}

#[test]
fn sliced_arrays_are_read_at_their_offset() {
    let ids = with_nulls(5, 300);
    let col = fixed(&ids);
    let rows: Vec<Option<String>> = ids.iter().map(|u| u.map(|u| u.to_string())).collect();
    for (start, len) in [(0, 300), (1, 299), (7, 100), (123, 0), (299, 1), (64, 64)] {
        let want = &ids[start..start + len];
        let part = col.slice(start, len);
        assert_eq!(uuids_of(&part), want);
        let text = arrow::format::<i32>(&part, &OutputForm::HYPHENATED).expect("format");
        assert_eq!(text.offset(), 0);
        for (i, u) in want.iter().enumerate() {
            assert_eq!(
                text.is_valid(i).then(|| text.value(i).to_owned()),
                u.map(|u| u.to_string())
            );
        }
        for layout in text_layouts(&rows) {
            let part = layout.slice(start, len);
            let back = arrow::parse(&part, InputForm::Rfc, OnError::Raise).expect("parse");
            assert_eq!(
                uuids_of(&back),
                want,
                "{} slice {start}+{len}",
                layout.data_type()
            );
        }
        // A bad row's index is counted within the slice.
        let mut bad = rows.clone();
        bad[start + len / 2] = Some("bad".to_owned());
        if len > 0 && want[len / 2].is_some() {
            let layout = StringArray::from_iter(bad.iter().map(|r| r.as_deref()));
            let err = arrow::parse(&layout.slice(start, len), InputForm::Rfc, OnError::Raise)
                .unwrap_err();
            assert_eq!(arrow::row_error(&err).map(|r| r.row()), Some(len / 2));
        }
        let t = arrow::timestamp(&part).expect("timestamp");
        let v = arrow::version(&part).expect("version");
        assert_eq!((t.len(), v.len()), (len, len));
    }
}

#[test]
fn empty_and_all_null_columns() {
    let empty = fixed(&[]);
    assert_eq!(
        arrow::format::<i32>(&empty, &OutputForm::HYPHENATED)
            .expect("empty")
            .len(),
        0
    );
    assert_eq!(arrow::timestamp(&empty).expect("empty").len(), 0);
    assert_eq!(arrow::version(&empty).expect("empty").len(), 0);
    let no_text = StringArray::from(Vec::<&str>::new());
    assert_eq!(
        arrow::parse(&no_text, InputForm::Rfc, OnError::Raise)
            .expect("empty")
            .len(),
        0
    );
    assert_eq!(
        arrow::validate(&no_text, InputForm::Rfc)
            .expect("empty")
            .len(),
        0
    );
    assert_eq!(arrow::v4(0).expect("none").len(), 0);
    assert_eq!(arrow::v7(0).expect("none").len(), 0);

    let nulls = fixed(&[None; 10]);
    let text = arrow::format::<i64>(&nulls, &OutputForm::HYPHENATED).expect("all null");
    assert_eq!(text.null_count(), 10);
    assert_eq!(arrow::timestamp(&nulls).expect("all null").null_count(), 10);
    assert_eq!(arrow::version(&nulls).expect("all null").null_count(), 10);
    let rows = vec![None; 10];
    for layout in text_layouts(&rows) {
        let back = arrow::parse(&layout, InputForm::Rfc, OnError::Raise).expect("all null");
        assert_eq!((back.len(), back.null_count()), (10, 10));
        assert_eq!(back.data_type(), &DataType::FixedSizeBinary(16));
    }
}

#[test]
fn binary_columns_of_16_byte_values_are_uuid_columns() {
    let ids = with_nulls(3, 200);
    let bytes: Vec<Option<[u8; 16]>> = ids.iter().map(|u| u.map(|u| u.into_bytes())).collect();
    let mut view = BinaryViewBuilder::new();
    for b in &bytes {
        view.append_option(b.as_ref());
    }
    let layouts: Vec<ArrayRef> = vec![
        Arc::new(BinaryArray::from_iter(bytes.iter().map(|b| b.as_ref()))),
        Arc::new(LargeBinaryArray::from_iter(
            bytes.iter().map(|b| b.as_ref()),
        )),
        Arc::new(view.finish()),
    ];
    let want = arrow::format::<i32>(&fixed(&ids), &OutputForm::HYPHENATED).expect("format");
    for layout in &layouts {
        let got = arrow::format::<i32>(layout, &OutputForm::HYPHENATED).expect("binary in");
        assert_eq!(got, want, "{}", layout.data_type());
        let got =
            arrow::format::<i32>(&layout.slice(9, 50), &OutputForm::HYPHENATED).expect("sliced");
        assert_eq!(got, want.slice(9, 50));
    }
    // Another length is an error naming the row; a null row's length does not matter.
    let odd = BinaryArray::from(vec![Some(&[0u8; 16][..]), None, Some(&[1u8; 15][..])]);
    for f in [
        |a: &dyn Array| arrow::format::<i32>(a, &OutputForm::HYPHENATED).map(|_| ()),
        |a: &dyn Array| arrow::timestamp(a).map(|_| ()),
        |a: &dyn Array| arrow::version(a).map(|_| ()),
    ] {
        let err = f(&odd).unwrap_err();
        assert_eq!(
            arrow::row_error(&err).map(|r| r.to_string()).as_deref(),
            Some("row 2: a UUID is 16 bytes, found 15")
        );
    }
}

#[test]
fn a_wrong_type_is_an_error_naming_it() {
    let ints = Int64Array::from(vec![1, 2]);
    let fsb8 = FixedSizeBinaryArray::try_from_iter([[0u8; 8]].into_iter()).expect("8 bytes");
    let check = |e: ArrowError, found: &DataType| {
        let t = arrow::type_error(&e).expect("a type error");
        assert_eq!(t.found(), found);
        assert!(e.to_string().contains(&found.to_string()), "{e}");
    };
    check(
        arrow::parse(&ints, InputForm::Rfc, OnError::Raise).unwrap_err(),
        &DataType::Int64,
    );
    check(
        arrow::validate(&fsb8, InputForm::Rfc).unwrap_err(),
        &DataType::FixedSizeBinary(8),
    );
    check(
        arrow::format::<i32>(&fsb8, &OutputForm::HYPHENATED).unwrap_err(),
        &DataType::FixedSizeBinary(8),
    );
    check(arrow::timestamp(&ints).unwrap_err(), &DataType::Int64);
    let text = StringArray::from(vec!["x"]);
    check(arrow::version(&text).unwrap_err(), &DataType::Utf8);
    assert_eq!(
        arrow::type_error(&arrow::version(&fsb8).unwrap_err()).map(|t| t.to_string()).as_deref(),
        Some("expected a FixedSizeBinary(16) column (or binary, large binary or binary view of 16-byte values), got FixedSizeBinary(8)")
    );
}

#[test]
fn timestamps_and_versions_match_the_library() {
    let mut ids: Vec<Option<Uuid>> = vec![
        Some(Uuid::parse_str("C232AB00-9414-11EC-B3C8-9F6BDECED846").expect("v1")),
        Some(Uuid::parse_str("1EC9414C-232A-6B00-B3C8-9F6BDECED846").expect("v6")),
        Some(Uuid::parse_str("017F22E2-79B0-7CC3-98C4-DC0C0C07398F").expect("v7")),
        Some(Uuid::NIL),
        Some(Uuid::MAX),
        None,
        // v1 before 1970 (Gregorian tick 1): negative milliseconds, rounded down.
        Some(Uuid::from_v1_parts(1, 0, [0; 6])),
        Some(uuidkit::v4()),
        Some(uuidkit::generator::global::try_v6().expect("v6")),
        Some(uuidkit::v1()),
        // A v5 (name-based) UUID: no time.
        Some(Uuid::parse_str("2ed6657d-e927-568b-95e1-2665a8aea6a2").expect("v5")),
    ];
    ids.extend(random_uuids(11, 1000).into_iter().map(Some));
    let col = fixed(&ids);
    let t = arrow::timestamp(&col).expect("timestamp");
    let v = arrow::version(&col).expect("version");
    assert_eq!(t.timezone(), Some("UTC"));
    assert_eq!(
        t.data_type(),
        &DataType::Timestamp(arrow_schema::TimeUnit::Millisecond, Some("UTC".into()))
    );
    assert_eq!(t.is_valid(0).then(|| t.value(0)), Some(1645557742000));
    assert_eq!(t.value(0), t.value(1));
    assert_eq!(t.value(2), 1645557742000);
    assert_eq!(t.value(6), -12219292800000);
    for (i, u) in ids.iter().enumerate() {
        let want_t = u.and_then(|u| match u.version_num() {
            1 | 6 | 7 if u.version().is_some() => u
                .timestamp()
                .map(|ts| ts.unix_nanos().div_euclid(1_000_000) as i64),
            _ => None,
        });
        assert_eq!(t.is_valid(i).then(|| t.value(i)), want_t, "row {i}: {u:?}");
        let want_v = u
            .filter(|u| u.variant() == uuidkit::Variant::Rfc9562)
            .map(|u| u.version_num());
        assert_eq!(v.is_valid(i).then(|| v.value(i)), want_v, "row {i}: {u:?}");
    }
}

#[test]
fn generators_fill_columns_in_order() {
    let before = uuidkit::v7();
    let a = arrow::v7(50_000).expect("v7");
    let b = arrow::v7(3).expect("v7");
    let after = uuidkit::v7();
    assert_eq!((a.len(), a.null_count()), (50_000, 0));
    let all: Vec<Uuid> = std::iter::once(before)
        .chain(uuids_of(&a).into_iter().flatten())
        .chain(uuids_of(&b).into_iter().flatten())
        .chain(std::iter::once(after))
        .collect();
    assert!(
        all.windows(2).all(|w| w[0] < w[1]),
        "strictly increasing, continuing v7()"
    );
    assert!(all.iter().all(|u| u.version_num() == 7));

    let r = arrow::v4(10_000).expect("v4");
    let ids: Vec<Uuid> = uuids_of(&r).into_iter().flatten().collect();
    assert!(ids
        .iter()
        .all(|u| u.version() == Some(uuidkit::Version::Random)));
    let mut sorted = ids.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), ids.len());
    assert_ne!(
        arrow::v4(1).expect("v4").value(0),
        arrow::v4(1).expect("v4").value(0)
    );
    // A count whose bytes cannot exist is an error, not an abort.
    assert!(matches!(
        arrow::v4(usize::MAX / 8),
        Err(ArrowError::MemoryError(_))
    ));
    assert!(matches!(
        arrow::v7(usize::MAX / 16 + 1),
        Err(ArrowError::MemoryError(_))
    ));
}

#[test]
fn the_field_carries_the_canonical_extension_type() {
    let f = arrow::uuid_field("id", true);
    assert_eq!(f.extension_type_name(), Some("arrow.uuid"));
    assert_eq!(
        f.metadata().get("ARROW:extension:name").map(String::as_str),
        Some("arrow.uuid")
    );
    assert!(f
        .try_extension_type::<arrow_schema::extension::Uuid>()
        .is_ok());
    assert_eq!(f.data_type(), arrow::v4(1).expect("v4").data_type());
}

#[test]
fn the_utf8_offset_limit_is_an_error() {
    // Utf8's i32 offsets end at 2^31 − 1 bytes: 59,652,324 hyphenated UUIDs; a column one
    // longer is refused before anything is allocated (the input's values are not even read:
    // an all-null column of that length costs only its 16-byte slots).
    let n = (i32::MAX as usize) / 36 + 1;
    let col = FixedSizeBinaryArray::new_null(16, n);
    let err = arrow::format::<i32>(&col, &OutputForm::HYPHENATED).unwrap_err();
    assert!(matches!(err, ArrowError::OffsetOverflowError(_)), "{err}");
}

#[test]
fn a_string_view_with_inline_and_buffered_rows() {
    // Short rows live inside the view (at most 12 bytes), long ones in a data buffer.
    let u = Uuid::NAMESPACE_URL;
    let text = StringViewArray::from(vec![Some("short"), Some(u.to_string().as_str()), None]);
    let back = arrow::parse(&text, InputForm::Rfc, OnError::Null).expect("null mode");
    assert_eq!(uuids_of(&back), [None, Some(u), None]);
}

#[test]
fn one_rfc_form_only() {
    let u = Uuid::NAMESPACE_OID;
    let forms = [
        Format::Hyphenated,
        Format::Simple,
        Format::Braced,
        Format::Urn,
    ];
    let rows: Vec<Option<String>> = forms
        .iter()
        .map(|f| {
            let mut buf = [0u8; uuidkit::MAX_ENCODED_LEN];
            Some(u.encode(*f, Case::Upper, &mut buf).to_owned())
        })
        .collect();
    for layout in text_layouts(&rows) {
        for (k, f) in forms.iter().enumerate() {
            let got = arrow::parse(&layout, InputForm::Only(*f), OnError::Null).expect("null mode");
            let want: Vec<Option<Uuid>> = (0..4).map(|i| (i == k).then_some(u)).collect();
            assert_eq!(uuids_of(&got), want, "{f:?}");
            let ok = arrow::validate(&layout, InputForm::Only(*f)).expect("validate");
            assert_eq!(
                ok.iter().map(|b| b == Some(true)).collect::<Vec<_>>(),
                (0..4).map(|i| i == k).collect::<Vec<_>>()
            );
        }
        let err =
            arrow::parse(&layout, InputForm::Only(Format::Braced), OnError::Raise).unwrap_err();
        assert_eq!(
            arrow::row_error(&err).map(|r| r.to_string()).as_deref(),
            Some("row 0: invalid length: expected 38 bytes, found 36")
        );
    }
}

#[test]
fn columns_split_over_threads_give_the_same_results() {
    // 2 × 2^18 rows and more are split into parts of at least 2^18 rows, one thread each
    // (`max_threads()`, the machine's parallelism, here left as it is: tests share the process).
    let n = 600_000;
    let ids = with_nulls(17, n);
    let col = fixed(&ids);
    let text = arrow::format::<i32>(&col, &OutputForm::HYPHENATED).expect("format");
    for (i, u) in ids.iter().enumerate().step_by(997) {
        assert_eq!(
            text.is_valid(i).then(|| text.value(i).to_owned()),
            u.map(|u| u.to_string())
        );
    }
    let back = arrow::parse(&text, InputForm::Rfc, OnError::Raise).expect("parse");
    assert_eq!(back, col);
    // The first bad row in row order, wherever the parts are cut.
    let mut rows: Vec<Option<String>> = ids.iter().map(|u| u.map(|u| u.to_string())).collect();
    rows[599_990] = Some("x".to_owned());
    rows[400_001] = Some("y".to_owned());
    rows[300_000] = Some("z".to_owned());
    let text = StringArray::from_iter(rows.iter().map(|r| r.as_deref()));
    let err = arrow::parse(&text, InputForm::Rfc, OnError::Raise).unwrap_err();
    assert_eq!(arrow::row_error(&err).map(|r| r.row()), Some(300_000));
    let lenient = arrow::parse(&text, InputForm::Rfc, OnError::Null).expect("null mode");
    assert_eq!(lenient.null_count(), col.null_count() + 3);
    assert!(lenient.is_null(599_990) && lenient.is_null(400_001) && lenient.is_null(300_000));

    let v7 = arrow::v7(n).expect("v7");
    assert!(
        (1..n).all(|i| v7.value(i - 1) < v7.value(i)),
        "v7 in order across parts"
    );
    assert!(uuidkit::v7().as_bytes().as_slice() > v7.value(n - 1));
    // Timestamps of a column this large are written into a mapping of their own.
    let t = arrow::timestamp(&v7).expect("timestamp");
    assert_eq!(t.null_count(), 0);
    for i in (0..n).step_by(1009) {
        let u = Uuid::from_slice(v7.value(i)).expect("16 bytes");
        assert_eq!(Some(t.value(i)), u.unix_ts_ms().map(|m| m as i64));
    }
    let t = arrow::timestamp(&col).expect("timestamp");
    assert_eq!(
        t.null_count(),
        n - ids
            .iter()
            .flatten()
            .filter(|u| u.timestamp().is_some() && u.version_num() != 2)
            .count()
    );
    let v4 = arrow::v4(n).expect("v4");
    let mut seen: Vec<&[u8]> = (0..n).map(|i| v4.value(i)).collect();
    assert!(seen.iter().all(|b| b[6] >> 4 == 4 && b[8] >> 6 == 2));
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(seen.len(), n, "no part repeats another's random stream");
    eprintln!("max_threads() = {}", arrow::max_threads());
}

#[test]
fn runs_of_36_byte_rows_keep_row_errors_and_nulls() {
    // Rows of one length one after another go through the column kernel; a 36-byte row it
    // rejects, a null row holding valid text and a null row holding junk inside such a run
    // must come out as the row parser has them.
    let n = 1_000;
    let ids = random_uuids(77, n);
    let mut rows: Vec<String> = ids.iter().map(|u| u.to_string()).collect();
    rows[70] = "67e55044-10b1-426f-9247-bb680e5fe0cX".to_owned();
    rows[200] = "67e55044-10b1-426f-9247+bb680e5fe0c8".to_owned();
    rows[300] = "!".repeat(36);
    let valid: Vec<bool> = (0..n).map(|i| i != 150 && i != 300).collect();
    let nulls = arrow_buffer::NullBuffer::from(valid.clone());
    let utf8 = StringArray::new(
        arrow_buffer::OffsetBuffer::from_lengths(rows.iter().map(|r| r.len())),
        arrow_buffer::Buffer::from(rows.concat().into_bytes()),
        Some(nulls.clone()),
    );
    let large = LargeStringArray::new(
        arrow_buffer::OffsetBuffer::from_lengths(rows.iter().map(|r| r.len())),
        arrow_buffer::Buffer::from(rows.concat().into_bytes()),
        Some(nulls.clone()),
    );
    let mut vb = StringViewBuilder::new();
    for (r, ok) in rows.iter().zip(&valid) {
        if *ok {
            vb.append_value(r);
        } else {
            vb.append_null();
        }
    }
    let layouts: Vec<ArrayRef> = vec![Arc::new(utf8), Arc::new(large), Arc::new(vb.finish())];
    for text in &layouts {
        for form in [InputForm::Rfc, InputForm::Only(Format::Hyphenated)] {
            let err = arrow::parse(text.as_ref(), form, OnError::Raise).unwrap_err();
            assert_eq!(
                err.to_string(),
                "External error: row 70: invalid character 'X' at byte 35: expected a hexadecimal digit",
                "{:?}",
                text.data_type()
            );
            let got = arrow::parse(text.as_ref(), form, OnError::Null).expect("null mode");
            for i in 0..n {
                let want = (i != 70 && i != 200 && valid[i]).then_some(ids[i]);
                assert_eq!(
                    got.is_valid(i)
                        .then(|| Uuid::from_slice(got.value(i)).expect("16")),
                    want,
                    "row {i} of {:?}",
                    text.data_type()
                );
                if want.is_none() {
                    assert_eq!(got.value(i), [0u8; 16], "row {i}'s bytes are zero");
                }
            }
        }
    }
}

#[test]
fn reused_output_memory_never_shows_an_earlier_columns_bytes() {
    // Outputs of 4 MiB and more are kept when freed and handed to the next call that fits;
    // every byte of that call's output is its own (null and bad rows are zero), never the
    // earlier column's random bytes.
    let n = (1 << 18) + 1000; // over 4 MiB of UUIDs, a size no other test makes
    let mut rows: Vec<Option<String>> = random_uuids(5, n)
        .iter()
        .map(|u| Some(u.to_string()))
        .collect();
    for i in (3..n).step_by(5) {
        rows[i] = None;
    }
    for i in (1..n).step_by(7) {
        rows[i] = Some("not a UUID".to_owned());
    }
    let text = StringArray::from_iter(rows.iter().map(|r| r.as_deref()));
    let mut reused = 0;
    // Tests share the process and its cache: try until a freed column's memory comes back.
    for _ in 0..20 {
        let v4 = arrow::v4(n).expect("v4");
        let freed = v4.value_data().as_ptr();
        drop(v4);
        let got = arrow::parse(&text, InputForm::Rfc, OnError::Null).expect("null mode");
        if got.value_data().as_ptr() == freed {
            reused += 1;
        }
        for (i, r) in rows.iter().enumerate() {
            let want = r.as_deref().and_then(|s| Uuid::parse_str(s).ok());
            if want.is_none() {
                assert!(got.is_null(i), "row {i}");
                assert_eq!(
                    got.value(i),
                    [0u8; 16],
                    "row {i}: an earlier column's bytes"
                );
            } else {
                assert_eq!(Uuid::from_slice(got.value(i)).ok(), want, "row {i}");
            }
        }
        if reused >= 3 {
            break;
        }
    }
    assert!(
        reused > 0,
        "no call reused a freed output; cache held {}",
        arrow::cache_held()
    );
}

#[test]
fn the_cache_limit_bounds_what_is_kept() {
    let before = arrow::cache_limit();
    assert!(before > 0);
    arrow::set_cache_limit(0);
    drop(arrow::v7(1 << 19).expect("v7"));
    // Once more: a column another test freed while the limit changed may have been kept.
    arrow::set_cache_limit(0);
    assert_eq!(arrow::cache_held(), 0, "nothing kept with a limit of 0");
    arrow::set_cache_limit(before);
    assert_eq!(arrow::cache_limit(), before);
}
