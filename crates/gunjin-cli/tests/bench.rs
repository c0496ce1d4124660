//! `gunjin bench` prints exactly one JSON object with its figures (speed is not asserted here).

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::process::Command;

use serde_json::Value;

fn bench(seed: &str) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_gunjin"))
        .args([
            "bench",
            "--sample-games",
            "2",
            "--rounds",
            "1",
            "--playouts",
            "3",
        ])
        .args(["--seed", seed])
        .output()
        .expect("run gunjin bench");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "one line: {text}");
    serde_json::from_str(&text).unwrap()
}

#[test]
fn bench_prints_one_json_object_with_its_figures() {
    let report = bench("5");
    for key in ["movegen_positions_per_s", "playout_plies_per_s"] {
        assert!(report[key].as_f64().unwrap() > 0.0, "{key}: {report}");
    }
    assert!(report["positions"].as_u64().unwrap() > 2);
    assert_eq!(report["playouts"], 3);
    let results = &report["playout_results"];
    let ended: u64 = ["sente_won", "gote_won", "drawn"]
        .iter()
        .map(|k| results[k].as_u64().unwrap())
        .sum();
    assert_eq!(ended, 3);
    assert_eq!(report["seed"], 5);

    // Same seed, same work.
    let again = bench("5");
    for key in [
        "positions",
        "moves_per_position",
        "playout_plies",
        "playout_results",
    ] {
        assert_eq!(report[key], again[key], "{key}");
    }
}
