//! Telling "not JSON" from "JSON nested deeper than the parser reads".
//!
//! `serde_json` builds a `Value` at most 128 levels deep and otherwise fails with an error of the
//! syntax category, so a line like `[[[[…]]]]` 200 levels deep would be answered `bad_json`
//! although it is JSON, only of no request's shape (`bad_request`, §10). Skipping a value
//! (`IgnoredAny`) has no depth limit and no recursion in `serde_json`, so it tells the two apart.

use serde::de::IgnoredAny;

/// Whether `error` is the parser giving up on depth rather than on the text.
pub(crate) fn is_depth_limit(error: &serde_json::Error) -> bool {
    error.to_string().starts_with("recursion limit exceeded")
}

/// Whether a parse error of `line` hides a JSON text nested too deep to read: then it is a
/// request of the wrong shape, not a line that is not JSON.
pub(crate) fn too_deep_but_json(line: &str, error: &serde_json::Error) -> bool {
    is_depth_limit(error) && serde_json::from_str::<IgnoredAny>(line).is_ok()
}

/// What an over-deep JSON line is told.
pub(crate) const TOO_DEEP: &str =
    "the JSON is nested deeper than 128 levels: no request has that shape";

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn deep(open: &str, inner: &str, close: &str, n: usize) -> String {
        format!("{}{inner}{}", open.repeat(n), close.repeat(n))
    }

    #[test]
    fn deep_json_is_json_and_deep_garbage_is_not() {
        for text in [
            deep("[", "1", "]", 100_000),
            deep("{\"k\":", "null", "}", 5_000),
        ] {
            let error = serde_json::from_str::<Value>(&text).unwrap_err();
            assert!(is_depth_limit(&error), "{error}");
            assert!(too_deep_but_json(&text, &error));
        }
        for text in [
            "[".repeat(100_000),
            deep("[", "1,", "]", 300),
            deep("[", "1", "]", 300) + "]",
        ] {
            let error = serde_json::from_str::<Value>(&text).unwrap_err();
            assert!(
                !too_deep_but_json(&text, &error),
                "{}",
                &text[text.len() - 8..]
            );
        }
        // A syntax error before the depth limit is not a depth error.
        let error = serde_json::from_str::<Value>("[1,]").unwrap_err();
        assert!(!is_depth_limit(&error));
        assert!(!too_deep_but_json("[1,]", &error));
    }
}
